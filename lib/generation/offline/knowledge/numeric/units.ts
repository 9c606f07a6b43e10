/**
 * Units of measurement as written in school textbooks, for checking a worked example's arithmetic
 * with dimensions. A unit is a factor to SI and a dimension vector (exponents of m, kg, s, A, K,
 * mol, cd). Angles are dimensionless (the degree is π/180) so that sin(35°) evaluates directly.
 *
 * Why not a units library: the job here is deciding which letters after a number *are* a unit in
 * the books' linearised math ("(2.4 m/s)(46 s)", "0.417m/(s^2)", "80.0-kg", "49^(∘)") and nothing
 * else; the table that needs is small, and an unknown symbol must fail (the example is then
 * skipped) rather than be guessed.
 */

export type TDims = readonly number[];

export interface IUnit {
  /** Multiply a value in this unit by `factor` to get SI. */
  factor: number;
  dims: TDims;
  /** Degrees, radians, revolutions: kept apart from bare numbers when values are compared. */
  angle?: boolean;
  /** Contains a metric prefix other than kg's (km, ms, μC): a typical source of ×1000 slips. */
  prefixed?: boolean;
}

export const DIMENSIONLESS: TDims = [0, 0, 0, 0, 0, 0, 0];
const D = (m = 0, kg = 0, s = 0, a = 0, k = 0, mol = 0, cd = 0): TDims => [m, kg, s, a, k, mol, cd];

const LENGTH = D(1);
const MASS = D(0, 1);
const TIME = D(0, 0, 1);
const FORCE = D(1, 1, -2);
const ENERGY = D(2, 1, -2);
const POWER = D(2, 1, -3);
const CHARGE = D(0, 0, 1, 1);
const VOLT = D(2, 1, -3, -1);

/** SI symbols that take metric prefixes, with their dimensions and factor. */
const PREFIXABLE: Record<string, [number, TDims]> = {
  m: [1, LENGTH],
  g: [1e-3, MASS],
  s: [1, TIME],
  N: [1, FORCE],
  J: [1, ENERGY],
  W: [1, POWER],
  Pa: [1, D(-1, 1, -2)],
  C: [1, CHARGE],
  A: [1, D(0, 0, 0, 1)],
  V: [1, VOLT],
  Ω: [1, D(2, 1, -3, -2)],
  F: [1, D(-2, -1, 4, 2)],
  T: [1, D(0, 1, -2, -1)],
  Wb: [1, D(2, 1, -2, -1)],
  Hz: [1, D(0, 0, -1)],
  eV: [1.602176634e-19, ENERGY],
  L: [1e-3, D(3)],
  mol: [1, D(0, 0, 0, 0, 0, 1)],
};
const PREFIXES: Record<string, number> = {
  T: 1e12,
  G: 1e9,
  M: 1e6,
  k: 1e3,
  c: 1e-2,
  m: 1e-3,
  μ: 1e-6,
  µ: 1e-6,
  n: 1e-9,
  p: 1e-12,
  f: 1e-15,
};

const DEG = Math.PI / 180;

/** Symbols that are not prefix + SI symbol. */
const SYMBOLS: Record<string, IUnit> = {
  kg: { factor: 1, dims: MASS },
  min: { factor: 60, dims: TIME },
  h: { factor: 3600, dims: TIME },
  hr: { factor: 3600, dims: TIME },
  d: { factor: 86400, dims: TIME },
  y: { factor: 3.156e7, dims: TIME },
  yr: { factor: 3.156e7, dims: TIME },
  mi: { factor: 1609.344, dims: LENGTH },
  ft: { factor: 0.3048, dims: LENGTH },
  "in.": { factor: 0.0254, dims: LENGTH },
  yd: { factor: 0.9144, dims: LENGTH },
  ly: { factor: 9.461e15, dims: LENGTH },
  AU: { factor: 1.496e11, dims: LENGTH },
  Å: { factor: 1e-10, dims: LENGTH },
  lb: { factor: 0.45359237, dims: MASS },
  cc: { factor: 1e-6, dims: D(3) },
  mph: { factor: 0.44704, dims: D(1, 0, -1) },
  atm: { factor: 101325, dims: D(-1, 1, -2) },
  cal: { factor: 4.184, dims: ENERGY },
  kcal: { factor: 4184, dims: ENERGY, prefixed: true },
  Cal: { factor: 4184, dims: ENERGY },
  K: { factor: 1, dims: D(0, 0, 0, 0, 1) },
  // Celsius and Fahrenheit only as differences: a step that adds 273 fails the dimension check.
  "°C": { factor: 1, dims: D(0, 0, 0, 0, 1) },
  ºC: { factor: 1, dims: D(0, 0, 0, 0, 1) },
  "°F": { factor: 5 / 9, dims: D(0, 0, 0, 0, 1) },
  rad: { factor: 1, dims: DIMENSIONLESS, angle: true },
  rev: { factor: 2 * Math.PI, dims: DIMENSIONLESS, angle: true },
  rpm: { factor: (2 * Math.PI) / 60, dims: D(0, 0, -1), angle: true },
  "°": { factor: DEG, dims: DIMENSIONLESS, angle: true },
  º: { factor: DEG, dims: DIMENSIONLESS, angle: true },
  "%": { factor: 0.01, dims: DIMENSIONLESS },
};

/** Unit names spelled out in prose ("46 seconds", "25 degrees"), singular and plural. */
const WORDS: Record<string, string> = {
  meter: "m",
  metre: "m",
  kilometer: "km",
  kilometre: "km",
  centimeter: "cm",
  centimetre: "cm",
  millimeter: "mm",
  millimetre: "mm",
  second: "s",
  millisecond: "ms",
  minute: "min",
  hour: "h",
  day: "d",
  year: "yr",
  gram: "g",
  kilogram: "kg",
  newton: "N",
  joule: "J",
  kilojoule: "kJ",
  watt: "W",
  kilowatt: "kW",
  volt: "V",
  ampere: "A",
  amp: "A",
  ohm: "Ω",
  coulomb: "C",
  hertz: "Hz",
  kelvin: "K",
  degree: "°",
  radian: "rad",
  revolution: "rev",
  mile: "mi",
  foot: "ft",
  feet: "ft",
  inch: "in.",
  inche: "in.",
  liter: "L",
  litre: "L",
  milliliter: "mL",
  pascal: "Pa",
  percent: "%",
};

const atomCache = new Map<string, IUnit | null>();

/** The unit a single symbol or unit word stands for, or undefined. */
export function unitAtom(symbol: string): IUnit | undefined {
  const cached = atomCache.get(symbol);
  if (cached !== undefined) return cached ?? undefined;
  const found = resolveAtom(symbol);
  atomCache.set(symbol, found ?? null);
  return found;
}

function resolveAtom(symbol: string): IUnit | undefined {
  const direct = SYMBOLS[symbol];
  if (direct) return direct;
  const base = PREFIXABLE[symbol];
  if (base) return { factor: base[0], dims: base[1] };
  for (const [prefix, scale] of Object.entries(PREFIXES)) {
    if (!symbol.startsWith(prefix) || symbol.length === prefix.length) continue;
    const rest = PREFIXABLE[symbol.slice(prefix.length)];
    if (rest) return { factor: scale * rest[0], dims: rest[1], prefixed: true };
  }
  const word = symbol.toLowerCase().replace(/s$/, "");
  const mapped = WORDS[word] ?? WORDS[symbol.toLowerCase()] ?? (SYMBOLS[word] ? word : undefined);
  return mapped ? unitAtom(mapped) : undefined;
}

export function unitMul(a: IUnit, b: IUnit, power = 1): IUnit {
  return {
    factor: a.factor * b.factor ** power,
    dims: a.dims.map((d, i) => d + power * (b.dims[i] ?? 0)),
    ...(a.angle || b.angle ? { angle: true } : {}),
    ...(a.prefixed || b.prefixed ? { prefixed: true } : {}),
  };
}

export function unitPow(a: IUnit, power: number): IUnit {
  return unitMul({ factor: 1, dims: DIMENSIONLESS }, a, power);
}

export const ONE: IUnit = { factor: 1, dims: DIMENSIONLESS };

export function sameDims(a: TDims, b: TDims): boolean {
  return a.every((d, i) => Math.abs(d - (b[i] ?? 0)) < 1e-9);
}

export function isDimensionless(d: TDims): boolean {
  return sameDims(d, DIMENSIONLESS);
}

// ---------------------------------------------------------------------------------------------
// Unit expressions after a number: "m/s", "m/(s^2)", "kg ⋅ m/s^2", "(N ⋅ m^2)/(kg^2)", "^(∘)"

export interface IParsedUnit {
  unit: IUnit;
  /** End offset in the text (exclusive). */
  end: number;
  text: string;
}

const ATOM_RE = /^(?:°C|ºC|°F|°|º|%|in\.|[A-Za-zΩμµÅ]+)/u;
const EXP_RE = /^\^\s*(?:\(\s*([−-]?\s*\d+(?:\.\d+)?)\s*\)|([−-]?\d+))|^([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)/u;
const DOT_RE = /^\s*[⋅·]\s*|^\s*\*\s*/u;
const SUPERSCRIPT: Record<string, string> = {
  "⁰": "0",
  "¹": "1",
  "²": "2",
  "³": "3",
  "⁴": "4",
  "⁵": "5",
  "⁶": "6",
  "⁷": "7",
  "⁸": "8",
  "⁹": "9",
  "⁻": "-",
};

/**
 * Parses a unit expression starting at `pos` (no leading space skipped). Division applies to the
 * next factor only, as textbooks mean it ("m/s^2" is m·s⁻², "J/kg⋅K" is read J·K/kg only if
 * written "J/(kg⋅K)"). Stops before anything that is not a unit, backing out of a dangling
 * "/" or "⋅" ("7880km/(3.84 × 10^5km)" yields "km").
 */
export function parseUnitAt(text: string, pos: number): IParsedUnit | null {
  const first = unitFactorAt(text, pos);
  if (!first) return null;
  let unit = first.unit;
  let end = first.end;
  for (;;) {
    const rest = text.slice(end);
    const dot = DOT_RE.exec(rest);
    const slash = /^\s*\/\s*/.exec(rest);
    const op = dot ?? slash;
    if (!op) break;
    const next = unitFactorAt(text, end + op[0].length);
    if (!next) break;
    unit = unitMul(unit, next.unit, slash && !dot ? -1 : 1);
    end = next.end;
  }
  return { unit, end, text: text.slice(pos, end) };
}

function unitFactorAt(text: string, pos: number): IParsedUnit | null {
  let unit: IUnit | undefined;
  let end: number;
  const rest = text.slice(pos);
  const degree = /^\^\s*\(\s*∘\s*\)|^\^∘/u.exec(rest);
  if (degree) {
    unit = SYMBOLS["°"]!;
    end = pos + degree[0].length;
  } else if (rest.startsWith("(")) {
    const close = matchingParen(text, pos);
    if (close < 0) return null;
    const inner = parseUnitAt(text, pos + 1);
    if (!inner || text.slice(inner.end, close).trim() !== "") return null;
    unit = inner.unit;
    end = close + 1;
  } else {
    const m = ATOM_RE.exec(rest);
    if (!m) return null;
    const symbol = m[0];
    // "in." is only inches with its dot; a letter run must end at a non-letter.
    if (symbol === "in") return null;
    unit = unitAtom(symbol);
    if (!unit) return null;
    end = pos + symbol.length;
  }
  const exp = EXP_RE.exec(text.slice(end));
  if (exp) {
    const raw = exp[3]
      ? [...exp[3]].map((c) => SUPERSCRIPT[c] ?? "").join("")
      : (exp[1] ?? exp[2] ?? "").replace(/[−\s]/g, (c) => (c === "−" ? "-" : ""));
    const power = Number(raw);
    if (!Number.isFinite(power) || power === 0) return null;
    unit = unitPow(unit, power);
    end += exp[0].length;
  }
  return { unit, end, text: text.slice(pos, end) };
}

/** Index of the parenthesis closing the one at `open`, or -1. */
export function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Tidies the books' linear unit notation for display: "m/(s^2)" → "m/s²", "kg ⋅ m/s" → "kg⋅m/s". */
export function prettyUnit(text: string): string {
  return prettyMath(
    text
      .replace(/\s*([⋅·])\s*/g, "⋅")
      .replace(/\/\((\w+(?:\^\d+)?)\)/g, "/$1")
      .replace(/^\((\w+\^\d+)\)\/\((\w+\^\d+)\)$/, "$1/$2")
      .trim(),
  );
}

const SUPER_DIGITS: Record<string, string> = {
  "0": "⁰",
  "1": "¹",
  "2": "²",
  "3": "³",
  "4": "⁴",
  "5": "⁵",
  "6": "⁶",
  "7": "⁷",
  "8": "⁸",
  "9": "⁹",
  "-": "⁻",
  "−": "⁻",
};

/** An integer's digits (and minus sign) as superscripts: "-11" → "⁻¹¹"; other characters kept. */
export const toSuperscript = (digits: string): string =>
  [...digits].map((c) => SUPER_DIGITS[c] ?? c).join("");

/** Superscripts for integer powers and the degree sign: "10^(− 11)" → "10⁻¹¹", "49^(∘)" → "49°". */
export function prettyMath(text: string): string {
  return text
    .replace(/\^\s*\(\s*∘\s*\)|\^∘/g, "°")
    .replace(/\^\s*\(\s*([−-]?)\s*(\d+)\s*\)|\^([−-]?\d+)/g, (_m, sign: string, a: string, b: string) =>
      toSuperscript(`${sign ?? ""}${a ?? b}`),
    );
}
