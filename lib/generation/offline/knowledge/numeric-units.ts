import { quantityName, unitOfName } from "./equations";
import { parseUnitAt, prettyUnit, sameDims, type TDims, unitAtom, unitMul, unitPow } from "./numeric/units";
import type { ISentence } from "./sentences";

/**
 * Units the passages state for a quantity ("The units of angular velocity are radians per second
 * (rad/s).", "The units of electric field are N/C.", "sound intensity (in W/m^2)"), for the
 * Remember MCQ "What is the SI unit of …?". A unit is kept only when it parses, and when its
 * dimensions are those of the SI unit the quantity's name calls for (`unitOfName`): a misread
 * phrase fails that check and is dropped, never asked.
 */

export interface IStatedUnit {
  /** The quantity as the passage names it ("angular velocity", "sound intensity"). */
  quantity: string;
  /** The unit for display ("rad/s", "N/C", "W/m²"). */
  unit: string;
  dims: TDims;
  chunkKey: string;
  /** The sentence that states it. */
  sentence: string;
}

const NAME = "([a-z][a-z-]*(?: [a-z][a-z-]*){0,3})";
const UNIT = "([^.;,]{1,60}?)";
const END = "(?=[.;,]\\s|[.;,]?$|\\s+(?:and|or|which|where|while|is|are|because|even)\\b)";
/** "the (SI) unit(s) of X is/are U", "X is measured in (units of) U", "X has units of U", "X (in U)". */
const PATTERNS: readonly RegExp[] = [
  new RegExp(
    `\\b(?:SI |standard |metric )?units? (?:of|for) (?:the |an? )?${NAME} (?:is|are) (?:called |expressed in )?(?:the |in )?${UNIT}${END}`,
    "i",
  ),
  new RegExp(
    `\\b${NAME} (?:is|are|can be) (?:usually |commonly |typically )?(?:measured|expressed) in (?:units of )?${UNIT}${END}`,
    "i",
  ),
  new RegExp(`\\b${NAME} (?:has|have) (?:the )?(?:SI |standard )?units? of ${UNIT}${END}`, "i"),
  new RegExp(`\\b${NAME} \\(in ${UNIT}\\)`, "i"),
  // A list of quantities: "Time: t, measured in seconds (s)".
  new RegExp(`^(?:- )?${NAME}: \\S{1,4}, measured in ${UNIT}${END}`, "i"),
];

/** A unit written as a symbol ("N/C", "m/s^2") or in words ("radians per second (rad/s)", "newtons"). */
export function readUnit(raw: string): { unit: string; dims: TDims } | null {
  const text = raw.trim().replace(/^(?:the|a|an)\s+/i, "");
  const paren = /\(([^()]{1,20})\)\s*$/.exec(text);
  if (paren) {
    const inner = symbolUnit(paren[1]!.replace(/^abbreviated\s+/i, "").trim());
    const outer = wordsUnit(text.slice(0, paren.index).trim());
    // "radians per second (rad/s)": the words and the symbol must agree.
    if (inner && (!outer || sameDims(inner.dims, outer.dims))) return inner;
    return null;
  }
  return symbolUnit(text) ?? wordsUnit(text);
}

function symbolUnit(raw: string): { unit: string; dims: TDims } | null {
  // "kg m/s": symbols side by side are a product.
  const text = /^[A-Za-z]{1,3}(?: [A-Za-z]{1,3}(?:\/[A-Za-z]{1,3}(?:\^\d)?)?)+$/.test(raw)
    ? raw.replace(/ /g, "⋅")
    : raw;
  const parsed = parseUnitAt(text, 0);
  if (!parsed || parsed.end !== text.length) return null;
  // A unit word spelled out ("newtons") is displayed as its symbol below, not as the word.
  if (/^[a-z]{4,}$/i.test(text)) return null;
  return { unit: prettyUnit(text), dims: parsed.unit.dims };
}

/** Symbols for unit words, for display ("radians per second" → "rad/s"). */
const WORD_SYMBOL: Record<string, string> = {
  meter: "m",
  metre: "m",
  second: "s",
  kilogram: "kg",
  newton: "N",
  joule: "J",
  watt: "W",
  volt: "V",
  ampere: "A",
  ohm: "Ω",
  coulomb: "C",
  hertz: "Hz",
  kelvin: "K",
  radian: "rad",
  pascal: "Pa",
};

/** "radians per second", "watts per meter squared", "newtons": symbol units joined by "per". */
function wordsUnit(text: string): { unit: string; dims: TDims } | null {
  const parts = text.toLowerCase().split(/\s+per\s+/);
  if (parts.length > 2) return null;
  let unit = null as ReturnType<typeof unitAtom> | null;
  const shown: string[] = [];
  for (const [i, part] of parts.entries()) {
    const m = /^([a-z]+?)s?(?: (squared|cubed))?$/.exec(part.trim());
    const symbol = m ? WORD_SYMBOL[m[1]!] : undefined;
    const atom = symbol ? unitAtom(symbol) : undefined;
    if (!m || !symbol || !atom) return null;
    const power = m[2] === "squared" ? 2 : m[2] === "cubed" ? 3 : 1;
    const factor = unitPow(atom, power);
    unit = unit ? unitMul(unit, factor, -1) : i === 0 ? factor : null;
    shown.push(`${symbol}${power > 1 ? `^${power}` : ""}`);
  }
  if (!unit) return null;
  return { unit: prettyUnit(shown.join("/")), dims: unit.dims };
}

/** Words before a quantity's name that are not part of it ("while sound intensity"). */
const LEAD =
  /^(?:(?:while|when|and|or|but|since|because|so|the|an?|its|their|SI|that|which|than|more|less|of|in|to|for|with|as|like)\s+)+/i;

/** Every quantity whose unit a passage sentence states, with its unit checked against the name. */
export function statedUnits(sentences: readonly ISentence[]): IStatedUnit[] {
  const out: IStatedUnit[] = [];
  const seen = new Set<string>();
  for (const s of sentences) {
    if (s.sideBox) continue;
    for (const re of PATTERNS) {
      const m = re.exec(s.text);
      if (!m) continue;
      const phrase = m[1]!.replace(LEAD, "").trim();
      // "electric field" is a name as a whole; "mass of the system" is cut to its quantity.
      const name =
        unitOfName(phrase) && phrase.split(" ").length <= 3 ? phrase.toLowerCase() : quantityName(phrase);
      const expected = name ? unitOfName(name) : null;
      const unit = readUnit(m[2]!);
      if (!name || !expected || !unit || !sameDims(unit.dims, expected.dims)) continue;
      // A pure number ("unit-less") is not a unit to ask for.
      if (expected.unit === "") continue;
      const quantity = displayName(phrase, name);
      if (seen.has(quantity)) continue;
      seen.add(quantity);
      out.push({ quantity, unit: unit.unit, dims: unit.dims, chunkKey: s.chunkKey, sentence: s.text });
    }
  }
  return out;
}

/** The passage's own words up to the quantity's head word ("sound intensity"), else the name. */
function displayName(phrase: string, name: string): string {
  const words = phrase.toLowerCase().split(/\s+/);
  const head = name.split(" ").pop()!;
  const at = words.lastIndexOf(head);
  if (at < 0) return name;
  const start = Math.max(0, at - 2);
  const kept = words
    .slice(start, at + 1)
    .join(" ")
    .replace(LEAD, "");
  return kept.endsWith(name) ? kept : name;
}

/** SI units of school quantities, for the wrong options of a unit question. */
export const QUANTITY_UNITS: readonly { quantity: string; unit: string }[] = [
  { quantity: "force", unit: "N" },
  { quantity: "energy", unit: "J" },
  { quantity: "power", unit: "W" },
  { quantity: "momentum", unit: "kg⋅m/s" },
  { quantity: "velocity", unit: "m/s" },
  { quantity: "acceleration", unit: "m/s²" },
  { quantity: "pressure", unit: "Pa" },
  { quantity: "frequency", unit: "Hz" },
  { quantity: "charge", unit: "C" },
  { quantity: "current", unit: "A" },
  { quantity: "voltage", unit: "V" },
  { quantity: "resistance", unit: "Ω" },
  { quantity: "electric field", unit: "N/C" },
  { quantity: "intensity", unit: "W/m²" },
  { quantity: "torque", unit: "N⋅m" },
  { quantity: "mass", unit: "kg" },
  { quantity: "time", unit: "s" },
  { quantity: "distance", unit: "m" },
  { quantity: "density", unit: "kg/m³" },
  { quantity: "spring constant", unit: "N/m" },
  { quantity: "entropy", unit: "J/K" },
  { quantity: "latent heat", unit: "J/kg" },
  { quantity: "moment of inertia", unit: "kg⋅m²" },
  { quantity: "angular momentum", unit: "kg⋅m²/s" },
  { quantity: "area", unit: "m²" },
  { quantity: "volume", unit: "m³" },
  { quantity: "temperature", unit: "K" },
];

/** Dimensions of a displayed unit ("kg⋅m/s", "m/s²"), or null. */
export function dimsOfUnit(unit: string): TDims | null {
  const linear = unit.replace(/²/g, "^2").replace(/³/g, "^3");
  const parsed = parseUnitAt(linear, 0);
  return parsed && parsed.end === linear.length ? parsed.unit.dims : null;
}
