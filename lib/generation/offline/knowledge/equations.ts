import { escapeRegExp } from "@/lib/text/regex";
import type { EZone } from "@/types/chunk.types";
import type { IContextChunk } from "@/types/generation.types";
import { formatSig } from "./numeric/format";
import { parseUnitAt, prettyUnit, sameDims, type TDims } from "./numeric/units";
import { chunkKey, QUESTION_WORTHY_ZONES, questionWorthyText } from "./sentences";

/** The lesson's zones and its worked examples, whose solutions state the equation they use. */
const EQUATION_ZONES: ReadonlySet<EZone> = new Set<EZone>([...QUESTION_WORTHY_ZONES, "worked_example"]);

/**
 * Relations the passages state as equations ("f = μN, where μ is the coefficient of friction and N
 * is the normal force"): the product-and-quotient laws a school numeric problem, a proportional
 * claim, a data table or a fair test is built on. Only an equation whose every symbol the passage
 * (or the lesson's standard names, when the passage uses the name) gives a quantity with a known SI
 * unit, and whose units agree on both sides, is kept: a name guessed wrong fails the unit check and
 * the equation is dropped, never used.
 *
 * Read from the lesson's zones (exposition, definitions, summaries) and its worked examples, whose
 * solutions state the equation they use ("a = F_net/m"); never from activities, media or captions.
 */

export interface IQuantity {
  /** As written: "F_net", "μ", "Δt". */
  symbol: string;
  /** "net external force", "mass". */
  name: string;
  /** SI unit as displayed ("m/s²"), "" for a pure number (a coefficient of friction). */
  unit: string;
  dims: TDims;
}

export interface IFactor extends IQuantity {
  /** Power in the law: 1 for "ma", −1 for "/m", 2 for "v^2", −2 for "/(r^2)". */
  power: number;
}

export interface IEquation {
  /** The equation as written in the passage ("F_net = ma"). */
  text: string;
  /** The quantity it gives. */
  subject: IQuantity;
  /** Its factors with their powers; a number in front is `coefficient`. */
  factors: IFactor[];
  coefficient: number;
  chunkKey: string;
  /** The passage's text to cite: the equation with the sentence that names its symbols. */
  quote: string;
}

/** SI units by the head word of a quantity's name, most specific first. */
const UNITS: readonly [RegExp, string][] = [
  [/\bcoefficient of (?:\w+ )?friction\b/, ""],
  [/\b(?:spring|force) constant\b/, "N/m"],
  [/\bangular (?:velocity|speed)\b/, "rad/s"],
  [/\bangular acceleration\b/, "rad/s^2"],
  [/\bangular momentum\b/, "kg⋅m^2/s"],
  [/\bmoment of inertia\b/, "kg⋅m^2"],
  [/\btorque\b/, "N⋅m"],
  [/\blatent heat\b/, "J/kg"],
  [/\bspecific heat(?: capacity)?\b/, "J/(kg⋅K)"],
  [/\bcapacitance\b/, "F"],
  [/\bmagnetic field(?: strength)?\b/, "T"],
  [/\bentropy\b/, "J/K"],
  [/\bintensity\b/, "W/m^2"],
  [/\belectric field\b/, "N/C"],
  [/\bindex of refraction\b/, ""],
  [/\btemperature\b/, "K"],
  [/\bacceleration\b/, "m/s^2"],
  [/\b(?:velocity|speed)\b/, "m/s"],
  [/\bmomentum\b/, "kg⋅m/s"],
  [/\bimpulse\b/, "N⋅s"],
  [/\b(?:force|weight|tension|friction|thrust|drag|lift)\b/, "N"],
  [/\bmass\b/, "kg"],
  [/\bpressure\b/, "Pa"],
  [/\bpower\b/, "W"],
  [/\b(?:work|energy|heat)\b/, "J"],
  [/\bdensity\b/, "kg/m^3"],
  [/\barea\b/, "m^2"],
  [/\bvolume\b/, "m^3"],
  [/\bfrequency\b/, "Hz"],
  [/\b(?:period|time|interval)\b/, "s"],
  [/\b(?:distance|displacement|height|length|radius|wavelength|position|depth|arc length)\b/, "m"],
  [/\bcharge\b/, "C"],
  [/\bcurrent\b/, "A"],
  [/\b(?:voltage|potential difference|emf|electric potential(?! energy))\b/, "V"],
  [/\bresistance\b/, "Ω"],
];

/** Names whose head word alone is no quantity ("field", "refraction"). */
const MULTI_WORD: readonly RegExp[] = UNITS.map(([re]) => re).filter(
  (re) => re.source.includes(" ") && !re.source.includes("(?:\\w+ )?"),
);

/** The SI unit (text, dims) a quantity's name calls for, or null when none is known. */
export function unitOfName(name: string): { unit: string; dims: TDims } | null {
  const n = name.toLowerCase();
  for (const [re, unit] of UNITS) {
    if (!re.test(n)) continue;
    if (!unit) return { unit: "", dims: [0, 0, 0, 0, 0, 0, 0] };
    const parsed = parseUnitAt(unit, 0);
    if (!parsed || parsed.end !== unit.length) return null;
    // Radians are a ratio: rad/s has the dimensions of 1/s.
    return { unit: prettyUnit(unit), dims: parsed.unit.dims };
  }
  return null;
}

/**
 * Standard names for common symbols, used only when the passage itself uses the name (so "W" is
 * weight in a passage on weight and work in one on work; both named → not guessed).
 */
const STANDARD: Record<string, readonly string[]> = {
  m: ["mass"],
  a: ["acceleration"],
  v: ["velocity", "speed"],
  t: ["time"],
  d: ["distance", "displacement"],
  F: ["force"],
  F_net: ["net force", "net external force"],
  p: ["momentum"],
  W: ["weight", "work"],
  P: ["power", "pressure"],
  A: ["area"],
  V: ["volume", "voltage"],
  I: ["current"],
  R: ["resistance"],
  Q: ["charge", "heat"],
  E: ["energy"],
  N: ["normal force"],
  r: ["radius"],
  k: ["spring constant"],
  ρ: ["density"],
  Δt: ["time interval", "time"],
  Δp: ["change in momentum"],
  Δv: ["change in velocity"],
  ΔT: ["change in temperature", "temperature change"],
  λ: ["wavelength"],
  f: ["frequency"],
  q: ["charge"],
  ω: ["angular speed", "angular velocity"],
  v_w: ["wave speed", "speed of the wave"],
  c: ["specific heat", "specific heat capacity"],
  // Wave 14: symbols the passages name only in a heading or an earlier sentence ("Capacitance …
  // C = Q/V", "an emf ε … I = ε/R"). Not n (index of refraction): n = c/v with a chosen speed gave
  // indices of 10⁷ on development sets.
  C: ["capacitance"],
  ε: ["emf"],
  U_E: ["electric potential energy"],
  Δd: ["displacement"],
};

const GREEK = "αβγδεζηθικλμνξπρστυφχψωΔΣΩ";
const SYMBOL = `[A-Za-z${GREEK}](?:_(?:\\([^()]{1,12}\\)|[A-Za-z]{1,5}|\\d))?`;
/** One factor: an optional Δ, a symbol, an optional integer power. */
const FACTOR_RE = new RegExp(`^(Δ?${SYMBOL})(?:\\^(?:\\((\\d)\\)|(\\d)))?`, "u");
/** "= RHS": a product/quotient of symbols with no spaces, up to a space or punctuation. */
const EQUALS_RHS = `\\s?=\\s?([0-9½A-Za-z${GREEK}_^()/⋅·×]{1,24})(?=[\\s,.;)]|$)`;
/** "SYM = RHS". */
const EQUATION_RE = new RegExp(`(?:^|[\\s(])(Δ?${SYMBOL})${EQUALS_RHS}`, "gmu");
/** The next link of a chain of equalities right after an equation ("… = mg"). */
const LINK_RE = new RegExp(`^${EQUALS_RHS}`, "u");

/** A product like "mv^2" or "(mv^2)" → factors with powers; null when anything is not a symbol. */
function product(text: string, sign: 1 | -1): { symbol: string; power: number }[] | null {
  let s = text.trim();
  if (s.startsWith("(") && s.endsWith(")")) s = s.slice(1, -1);
  const out: { symbol: string; power: number }[] = [];
  while (s.length > 0) {
    s = s.replace(/^[⋅·×]/, "");
    const m = FACTOR_RE.exec(s);
    if (!m) return null;
    const power = Number(m[2] ?? m[3] ?? 1);
    out.push({ symbol: m[1]!, power: sign * power });
    s = s.slice(m[0].length);
  }
  return out.length > 0 ? out : null;
}

/** "F_net/m" → [{F_net, 1}, {m, −1}] and a numeric coefficient ("1/2mv^2" is not read). */
export function parseLaw(
  rhs: string,
): { factors: { symbol: string; power: number }[]; coefficient: number } | null {
  // "m(v^2)/r": a powered factor in brackets inside a product is that factor.
  rhs = rhs.replace(/(?<=[A-Za-z\u0370-\u03ff_])\((Δ?[A-Za-z\u0370-\u03ff](?:_\w+)?\^\d)\)/gu, "$1");
  // "2d/(t^2)": a whole number in front; "1/2mv^2", "½CV^2" (wave 14): a half or another simple
  // fraction in front (kinetic energy, a capacitor's energy), read before the quotient is split.
  const lead = /^(?:(\d)\/(\d)|(½)|(\d+))(?=[A-Za-zΔ(])/u.exec(rhs);
  const coefficient = !lead
    ? 1
    : lead[1]
      ? Number(lead[1]) / Number(lead[2])
      : lead[3]
        ? 0.5
        : Number(lead[4]);
  const body = lead ? rhs.slice(lead[0].length) : rhs;
  const parts = splitTopLevel(body, "/");
  if (!parts || parts.length > 2) return null;
  const num = product(parts[0]!, 1);
  const den = parts[1] === undefined ? [] : product(parts[1], -1);
  if (!num || !den) return null;
  const factors = [...num, ...den];
  const symbols = new Set(factors.map((f) => f.symbol));
  if (symbols.size !== factors.length) return null;
  return { factors, coefficient };
}

function splitTopLevel(s: string, sep: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let at = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === "(") depth++;
    else if (ch === ")") depth--;
    if (depth < 0) return null;
    if (ch === sep && depth === 0) {
      out.push(s.slice(at, i));
      at = i + 1;
    }
  }
  if (depth !== 0) return null;
  out.push(s.slice(at));
  return out.some((p) => p.length === 0) ? null : out;
}

const NAME_WORDS = "[a-z][a-z-]*(?: [a-z][a-z-]*){0,4}";
const STOP = /\s(?:and|of the object|on the object|acting|that|which|on|for|with|at)\b.*$/;

/** Words kept before a quantity's head word: "net external force", "coefficient of kinetic friction". */
const MODIFIERS = new Set(
  "of in net external internal angular tangential initial final average instantaneous normal change coefficient spring force kinetic static gravitational frictional electric potential total elastic centripetal linear".split(
    " ",
  ),
);

/**
 * The quantity in a phrase: cut after its last head word ("mass of the system" → "mass"), keeping
 * the modifiers before it ("the object’s net external force" → "net external force").
 */
export function quantityName(phrase: string): string | null {
  // A name that is several words as a whole ("index of refraction", "electric field").
  const whole = MULTI_WORD.map((re) => re.exec(phrase.toLowerCase())?.[0]).find(Boolean);
  if (whole) return whole;
  const words = phrase.toLowerCase().split(/\s+/);
  for (let end = words.length; end > 0; end--) {
    if (!unitOfName(words[end - 1]!)) continue;
    let start = end - 1;
    while (start > 0 && MODIFIERS.has(words[start - 1]!) && end - start < 5) start--;
    while (start < end - 1 && /^(?:of|in)$/.test(words[start]!)) start++;
    const name = words.slice(start, end).join(" ");
    return unitOfName(name) ? name : null;
  }
  return null;
}

/** The name the text gives a symbol ("where μ is the coefficient of friction", "mass m", "weight (W)"). */
export function nameOf(symbol: string, text: string, standardNames = true): string | null {
  const s = escapeRegExp(symbol);
  const patterns = [
    // "v is the speed", never "v is proportional to the distance r".
    new RegExp(
      `(?:^|[\\s,(])${s},? (?:is|represents|stands for|denotes) (?!(?:proportional|related|equal|given|defined|measured|called|constant|inversely|directly)\\b)(?:the |a |an )?(${NAME_WORDS})`,
      "u",
    ),
    new RegExp(`\\b(?:the |a |an |its )?(${NAME_WORDS}) \\(${s}\\)`, "u"),
    new RegExp(`\\b(?:the|a|an|with|of|its) (${NAME_WORDS}) ${s}(?=[\\s,.;)])`, "u"),
    new RegExp(`\\b(?:the |a |an )?(${NAME_WORDS})(?:,| is| as)\\s+${s}\\s?=`, "u"),
    // "Tangential speed v and angular speed ω": no article; not for symbols that are words ("a").
    ...(/^(?:a|A|I)$/.test(symbol)
      ? []
      : [new RegExp(`(?:^|[\\s(,])(${NAME_WORDS}),? ${s}(?=[\\s,.;)])`, "mu")]),
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    if (!m) continue;
    // A name written before its symbol is the last of a list ("speed v and angular speed ω").
    const phrase = re === patterns[0] ? m[1]! : m[1]!.split(/\s(?:and|or)\s/).pop()!;
    const name = quantityName(phrase.replace(STOP, "").trim());
    if (name) return name;
  }
  const standard = standardNames ? STANDARD[symbol] : undefined;
  if (standard) {
    const lower = text.toLowerCase();
    const used = standard.filter((n) => new RegExp(`\\b${escapeRegExp(n)}\\b`).test(lower));
    // Two standard names in the passage (weight and work): the symbol is ambiguous.
    if (used.length === 1 || (used.length > 1 && standard[0] === used[0] && symbol.length > 1))
      return used[0]!;
  }
  return null;
}

/** Symbols that are constants, not quantities to vary (g is varied only as a given). */
const CONSTANTS = new Set(["π", "G", "e"]);

/** Constants a school problem gives (g) or states (c), named by the passage or not. */
export const FIXED: Record<string, { name: string; value: number; text: string }> = {
  g: { name: "acceleration due to gravity", value: 9.8, text: "g = 9.8 m/s²" },
  c: { name: "speed of light", value: 3.0e8, text: "c = 3.0 × 10⁸ m/s" },
};

/** An equation's quantities: its subject, then its factors. */
export const quantitiesOf = (eq: Pick<IEquation, "subject" | "factors">): IQuantity[] => [
  eq.subject,
  ...eq.factors,
];

/**
 * How `output` follows `input` with the equation's other quantities held (output ∝ input^e): for
 * subject = Π factor^p, the factor's power, its inverse, or the ratio of the two powers.
 */
export function exponentOf(
  eq: Pick<IEquation, "subject" | "factors">,
  output: IQuantity,
  input: IQuantity,
): number {
  const powerOf = (q: IQuantity) => (q === eq.subject ? 1 : (eq.factors.find((f) => f === q)?.power ?? 0));
  if (output === eq.subject) return powerOf(input);
  if (input === eq.subject) return 1 / powerOf(output);
  return -powerOf(input) / powerOf(output);
}

/**
 * A property of the object or material (wave 14): changing the other quantities of its defining
 * ratio does not change it ("C = Q/V": doubling the charge doubles the voltage, not the
 * capacitance; "k = F/x", "R = V/I", "ρ = m/V"). It can be set by choosing another object, and is
 * held by keeping the same one, but it is never the quantity that follows.
 */
export const isProperty = (q: Pick<IQuantity, "name">) =>
  /^(?:capacitance|resistance|resistivity|(?:spring|force) constant|density|specific heat(?: capacity)?|latent heat|index of refraction|coefficient of (?:\w+ )?friction)$/.test(
    q.name,
  );

/**
 * "v = fλ": a wave's speed in terms of its frequency and wavelength. The medium sets the speed, so
 * no question changes it through f and λ (round 13 readers).
 */
export const isWaveSpeedLaw = (eq: Pick<IEquation, "subject" | "factors">) =>
  /\b(?:speed|velocity)\b/.test(eq.subject.name) && eq.factors.some((f) => /\bwavelength\b/.test(f.name));

/** Every usable equation stated in the question-worthy text of the passages (`why`: each equation given up, and the step). */
export function extractEquations(
  chunks: readonly IContextChunk[],
  why?: (step: string) => void,
): IEquation[] {
  const out: IEquation[] = [];
  const seen = new Set<string>();
  const drop = (text: string, step: string) => {
    why?.(`${step} (${text})`);
  };
  const texts = chunks.map((c) => questionWorthyText(c, EQUATION_ZONES));
  // The lesson's own text, without its worked examples (wave 14): an equation only a worked
  // example states is kept when the lesson names its subject ("the definition of capacitance:
  // C = Q/V" inside an Ohm's-law example is another lesson's law).
  const lessons = chunks.map((c) => questionWorthyText(c, QUESTION_WORTHY_ZONES).toLowerCase());
  const lesson = lessons.join("\n\n");
  for (const [i, chunk] of chunks.entries()) {
    const text = texts[i]!;
    const others = texts.filter((_, j) => j !== i).join("\n\n");
    for (const m of text.matchAll(EQUATION_RE)) {
      const lhs = m[1]!;
      let rhs = m[2]!.replace(/[.,;]+$/, "");
      let end = (m.index ?? 0) + m[0].length;
      // "F = ma = mg": a law recalled on the way to the passage's own result (the weight); the
      // questions belong to the last link, F = mg, not the recalled first one (round 13: F = ma
      // problems in a section on gravitation, read as off topic).
      for (let link = LINK_RE.exec(text.slice(end)); link; link = LINK_RE.exec(text.slice(end))) {
        rhs = link[1]!.replace(/[.,;]+$/, "");
        end += link[0].length;
      }
      const shown = `${lhs} = ${rhs}`;
      const law = parseLaw(rhs);
      // "Recall the equation v = fλ." / "Recall that …": an earlier lesson's law, not this one's.
      const sentenceStart =
        Math.max(text.lastIndexOf(". ", m.index ?? 0), text.lastIndexOf("\n", m.index ?? 0)) + 1;
      if (/^\s*(?:recall|remember)\b/i.test(text.slice(sentenceStart, m.index ?? 0))) {
        drop(shown, "a law the passage recalls from an earlier lesson");
        continue;
      }
      // A law relates at least two quantities to the subject ("T = W" is a step, not a law).
      if (!law || law.factors.length < 2) {
        if (law === null) drop(shown, "not a product or quotient of symbols");
        continue;
      }
      if (law.factors.some((f) => CONSTANTS.has(f.symbol) || f.symbol === lhs)) {
        drop(shown, "a constant or the subject again");
        continue;
      }
      const key = `${lhs}=${rhs}`;
      if (seen.has(key)) continue;
      const subject = quantity(lhs, text, others);
      if (!subject) {
        drop(shown, `${lhs} not named`);
        continue;
      }
      const factors: IFactor[] = [];
      for (const f of law.factors) {
        const q = quantity(f.symbol, text, others);
        if (!q) {
          drop(shown, `${f.symbol} not named`);
          break;
        }
        factors.push({ ...q, power: f.power });
      }
      if (factors.length !== law.factors.length) continue;
      // Two factors of one quantity ("mass" twice) or the subject again: not a law to vary.
      const names = new Set([subject.name, ...factors.map((f) => f.name)]);
      if (names.size !== factors.length + 1) {
        drop(shown, `one quantity twice (${[subject.name, ...factors.map((f) => f.name)].join(", ")})`);
        continue;
      }
      if (!dimsAgree(subject, factors)) {
        drop(shown, `units disagree (${[subject.name, ...factors.map((f) => f.name)].join(", ")})`);
        continue;
      }
      // A symbol named only by the standard table, in an equation only a worked example states,
      // must be a quantity the lesson itself names (by its head word).
      const guessed = [subject, ...factors].find(
        (q) =>
          !FIXED[q.symbol] &&
          !nameOf(q.symbol, text, false) &&
          !(others && nameOf(q.symbol, others, false)) &&
          // Its head word: "temperature change" is named by "a change in its temperature".
          !new RegExp(`\\b${escapeRegExp(q.name.split(" ").pop()!)}\\b`).test(lesson),
      );
      if (guessed && !lessons[i]!.includes(m[0].trim().toLowerCase())) {
        drop(shown, `only a worked example states it, and the lesson does not name the ${guessed.name}`);
        continue;
      }
      seen.add(key);
      const at = m.index ?? 0;
      out.push({
        text: shown,
        subject,
        factors,
        coefficient: law.coefficient,
        chunkKey: chunkKey(chunk),
        quote: quoteAround(text, at, at + m[0].length),
      });
    }
  }
  return out;
}

function quantity(symbol: string, text: string, others = ""): IQuantity | null {
  // g is a given (9.8 m/s²) in every school problem, named or not; c when the passage names light
  // (otherwise c is what the passage names it: "the symbol c stands for specific heat").
  const fixed = FIXED[symbol];
  const name =
    fixed && (symbol === "g" || /\bspeed of light\b/i.test(text))
      ? fixed.name
      : symbol === "g"
        ? null
        : // A symbol the equation's own passage does not name, named in another selected passage
          // of the lesson ("where m is the mass" beside the worked example that uses Q = mcΔT).
          (nameOf(symbol, text) ?? (others ? nameOf(symbol, others) : null));
  if (!name) return null;
  const unit = unitOfName(name);
  return unit ? { symbol, name, unit: unit.unit, dims: unit.dims } : null;
}

function dimsAgree(subject: IQuantity, factors: readonly IFactor[]): boolean {
  const dims = subject.dims.map(() => 0);
  for (const f of factors)
    f.dims.forEach((d, i) => {
      dims[i] = (dims[i] ?? 0) + d * f.power;
    });
  return sameDims(dims, subject.dims);
}

/** The equation with the sentence that introduces it and the one after (where the symbols are named). */
function quoteAround(text: string, start: number, end: number): string {
  const head = text.slice(Math.max(0, start - 300), start);
  const cut = Math.max(head.lastIndexOf(". "), head.lastIndexOf(".\n"), head.lastIndexOf(":\n"));
  const tail = text.slice(end, end + 300);
  const stop = tail.search(/\.(?:\s|$)/);
  const quote = `${cut >= 0 ? head.slice(cut + 2) : head}${text.slice(start, end)}${stop >= 0 ? tail.slice(0, stop + 1) : ""}`;
  return quote
    .replace(/^\s*#+[^\n]*\n/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Evaluates the law for values in SI (by symbol). */
export function evaluateLaw(eq: IEquation, values: ReadonlyMap<string, number>): number {
  let out = eq.coefficient;
  for (const f of eq.factors) out *= (values.get(f.symbol) ?? Number.NaN) ** f.power;
  return out;
}

/** "2.0 kg" with a quantity's unit. */
export const withQuantityUnit = (value: number, q: IQuantity, sig = 2) =>
  q.unit ? `${formatSig(value, sig)} ${q.unit}` : formatSig(value, sig);
