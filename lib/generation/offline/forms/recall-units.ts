import { quantityName, unitOfName } from "@/lib/generation/offline/knowledge/equations";
import { parseUnitAt, prettyUnit, sameDims } from "@/lib/generation/offline/knowledge/numeric/units";
import type { IStatedUnit } from "@/lib/generation/offline/knowledge/numeric-units";
import type { ISentence } from "@/lib/generation/offline/knowledge/sentences";

/**
 * Units read from use: most passages never say "the unit of momentum is …", but they write "a
 * momentum of 12 kg⋅m/s", "a speed of 25.0 m/s", "the mass is 65.0 kg". Such a phrase shows the
 * unit in use for a named quantity. It is kept for "What is the SI unit of …?" only when
 *
 * - the quantity's name is one whose SI unit is known (`unitOfName`: speed → m/s), and
 * - the unit written is exactly that SI unit (same dimensions and the same symbol after
 *   normalising ⋅/·, ^2/²): "12 km/h" and "5 kilometers" show a unit, not the SI one, and are
 *   not used; a misread phrase ("a power of 10 when") has no unit and is dropped.
 *
 * The key is then what the passage writes, checked by the quantity's name; the question cites the
 * sentence that uses it.
 */

const NUMBER = String.raw`[−-]?\d[\d,]*(?:\.\d+)?(?:\s*[×x]\s*10\^?\(?[−-]?\d+\)?)?`;
/**
 * "<name> of <number>", "<name> (v) is <number>", "<name> = <number>", "of mass 5 kg" (the Indian
 * board style), with an optional hedge ("about").
 */
const USE = new RegExp(
  String.raw`\b((?:[a-z][a-z-]*\s+){0,3}[a-z][a-z-]*)(?:\s+\(?[A-Za-zΔθωα-ω]{1,3}\)?)?(?:\s+(?:of|is|was|equals|=))?\s+(?:about\s+|approximately\s+|roughly\s+|nearly\s+|only\s+|just\s+|exactly\s+)?(${NUMBER})\s?`,
  "giu",
);

/**
 * Units written with negative powers, as Indian board textbooks do ("m s–1", "kg m s–1",
 * "m s^-2"): rewritten as "m/s", "kg⋅m/s", "m/s^2" for the unit reader. Null when the text does
 * not start so.
 */
export function powerUnit(text: string): string | null {
  const m =
    /^((?:[A-Za-zμΩ]{1,3}(?:\s*\^?\s*[–−-]\s*\d)?\s+)*[A-Za-zμΩ]{1,3}\s*\^?\s*[–−-]\s*\d)(?![\p{L}\p{N}])/u.exec(
      text,
    );
  if (!m) return null;
  let out = "";
  for (const t of m[1]!.trim().split(/\s+(?=[A-Za-zμΩ])/)) {
    const p = /^([A-Za-zμΩ]{1,3})(?:\s*\^?\s*[–−-]\s*(\d))?$/u.exec(t);
    if (!p) return null;
    const power = p[2] ? Number(p[2]) : 0;
    if (power === 0) out += `${out ? "⋅" : ""}${p[1]}`;
    else if (!out) return null;
    else out += `/${p[1]}${power > 1 ? `^${power}` : ""}`;
  }
  return out;
}

/** Words before a quantity's name that are not part of it ("while the speed"). */
const LEAD =
  /^(?:(?:while|when|and|or|but|since|because|so|the|an?|its|their|SI|that|which|than|of|in|to|for|with|as|like|has|have|had|gives|reaches|at|average|final|initial|total|net)\s+)+/i;

const normal = (unit: string) =>
  prettyUnit(unit.replace(/·/g, "⋅")).replace(/\s+/g, "").replace(/\^2/g, "²").replace(/\^3/g, "³");

/** Every quantity the sentences show with a value in its SI unit, first use first, one per quantity. */
export function usedUnits(sentences: readonly ISentence[]): IStatedUnit[] {
  const out: IStatedUnit[] = [];
  const seen = new Set<string>();
  for (const s of sentences) {
    if (s.sideBox) continue;
    for (const m of s.text.matchAll(USE)) {
      const at = (m.index ?? 0) + m[0].length;
      const rest = s.text.slice(at);
      const written = powerUnit(rest) ?? rest;
      const parsed = parseUnitAt(written, 0);
      if (!parsed) continue;
      // The unit ends where a word would begin: "10 when" is no unit.
      if (written === rest && /^[\p{L}\p{N}]/u.test(rest.slice(parsed.end))) continue;
      const phrase = m[1]!.replace(LEAD, "").trim();
      const name = quantityName(phrase);
      const expected = name ? unitOfName(name) : null;
      if (!name || !expected || expected.unit === "") continue;
      if (!sameDims(parsed.unit.dims, expected.dims) || normal(parsed.text) !== normal(expected.unit))
        continue;
      if (seen.has(name)) continue;
      seen.add(name);
      out.push({
        quantity: name,
        unit: expected.unit,
        dims: expected.dims,
        chunkKey: s.chunkKey,
        sentence: s.text,
      });
    }
  }
  return out;
}
