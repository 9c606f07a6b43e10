/**
 * British ↔ American spelling variants of one word, by rules (colour/color, organise/organize,
 * analyse/analyze, centre/center, haemoglobin/hemoglobin, oesophagus/esophagus, sulphur/sulfur,
 * labelled/labeled, analogue/analog, defence/defense, leucocyte/leukocyte) and a short list of
 * irregular pairs (aluminium/aluminum, grey/gray, mould/mold …). The rules over-generate on
 * purpose ("water" → "watre"): a variant is only ever used where the searched scope's own
 * vocabulary holds it and not the word as typed (`lib/retrieval/spelling.ts`), so a nonsense
 * variant never matches anything.
 */

type TRule = readonly [RegExp, string];

/** British → American. Each rewrites every match in the word. */
const GB_TO_US: readonly TRule[] = [
  // colour, behaviour, tumours, favourable (not four, hour, your: two letters before "our")
  [/(?<=[a-z]{2})our(?=$|s$|ed$|ing|ful|less|ite|abl|ist|ism|ation)/g, "or"],
  // organise, fertilisation, ionising, vaporisation, polarised
  [/(?<=[a-z]{2})is(?=e|ing|ation|abl)/g, "iz"],
  // analyse, hydrolysed, paralysing
  [/ys(?=e|ing)/g, "yz"],
  // centre, metres, kilometre, fibre, litre (a consonant before "re", at the word's end)
  [/(?<=[a-z]{2}[b-df-hj-np-tv-z])re(?=s?$)/g, "er"],
  // haemoglobin, anaemia, caecum, faeces; oesophagus, foetus, oestrogen, diarrhoea
  [/ae/g, "e"],
  [/oe(?=[a-z])/g, "e"],
  // sulphur, sulphate, sulphide
  [/sulph/g, "sulf"],
  // labelled, travelling, modeller, signalling (a multi-syllable stem: not filled, called)
  [/(?<=[aeiouy][b-df-hj-np-tv-z]{0,3}[aeiou])ll(?=ed$|ing$|er$|ers$|or$|ors$)/g, "l"],
  // analogue, catalogue, homologues
  [/(?<=[a-z]{2})ogue(?=s?$)/g, "og"],
  // defence, licence, offence
  [/(?<=[a-z]{2})ence(?=s?$)/g, "ense"],
  // leucocyte, leucoplast
  [/leuc/g, "leuk"],
  // judgement, acknowledgement
  [/dgement/g, "dgment"],
];

/** American → British. */
const US_TO_GB: readonly TRule[] = [
  [/(?<=[a-z]{2})or(?=$|s$|ed$|ing|ful|less|ite|abl|ist|ism|ation)/g, "our"],
  [/(?<=[a-z]{2})iz(?=e|ing|ation|abl)/g, "is"],
  [/yz(?=e|ing)/g, "ys"],
  [/(?<=[a-z]{2}[b-df-hj-np-tv-z])er(?=s?$)/g, "re"],
  // hemoglobin, hemorrhage; anemia, leukemia, ischemic, hyperglycemia
  [/^hem/g, "haem"],
  [/(?<=[a-z][b-df-hj-np-tv-z])em(?=ia|ic)/g, "aem"],
  [/^(?=esoph|estr|edem)/g, "o"],
  [/^fet(?=us|al)/g, "foet"],
  [/rrhea/g, "rrhoea"],
  [/^ped(?=ia)/g, "paed"],
  [/orthoped/g, "orthopaed"],
  [/^cec/g, "caec"],
  [/^fec/g, "faec"],
  [/^celiac/g, "coeliac"],
  [/^anest/g, "anaest"],
  [/^ameb/g, "amoeb"],
  [/sulf/g, "sulph"],
  [/(?<=[aeiouy][b-df-hj-np-tv-z]{0,3}[aeiou])l(?=ed$|ing$|er$|ers$|or$|ors$)/g, "ll"],
  [/(?<=[a-z]{3})og(?=s?$)/g, "ogue"],
  [/(?<=[a-z]{2})ense(?=s?$)/g, "ence"],
  [/leuk/g, "leuc"],
  [/dgment/g, "dgement"],
];

/** Irregular pairs [British, American], matched as the word's start followed by a plain ending. */
const IRREGULAR: readonly (readonly [string, string])[] = [
  ["aluminium", "aluminum"],
  ["grey", "gray"],
  ["tyre", "tire"],
  ["programme", "program"],
  ["mould", "mold"],
  ["moult", "molt"],
  ["plough", "plow"],
  ["mollusc", "mollusk"],
  ["sceptic", "skeptic"],
  ["manoeuvre", "maneuver"],
  ["draught", "draft"],
  ["pyjama", "pajama"],
  ["artefact", "artifact"],
  ["ageing", "aging"],
  ["aeroplane", "airplane"],
  ["jewellery", "jewelry"],
  ["distil", "distill"],
  ["instil", "instill"],
  ["fulfil", "fulfill"],
  ["enrol", "enroll"],
  ["skilful", "skillful"],
  ["practise", "practice"],
  ["gramme", "gram"],
  ["kerb", "curb"],
  ["cosy", "cozy"],
];

/** Endings an irregular pair keeps ("moulds", "greyish", "programmes"). */
const IRREGULAR_ENDINGS = new Set(["", "s", "es", "ed", "ing", "er", "ers", "ish", "ness", "y"]);

/** At most this many variants per word (the single rules, each direction's rules together, the irregulars). */
export const MAX_VARIANTS = 8;

/** The word with all of one direction's rules applied (first: "haemolysed" → "hemolyzed"), then with each alone. */
function applyRules(word: string, rules: readonly TRule[], out: Set<string>): void {
  let all = word;
  const singles: string[] = [];
  for (const [re, to] of rules) {
    const one = word.replace(re, to);
    if (one !== word) singles.push(one);
    all = all.replace(re, to);
  }
  if (all !== word) out.add(all);
  for (const one of singles) out.add(one);
}

/**
 * The spelling variants of a lower-case word, British → American and American → British (the
 * word itself excluded; none for words under four letters or with anything but a–z). Inflected
 * forms vary too ("colours" → "colors", "labelled" → "labeled", "moulds" → "molds").
 */
export function spellingVariants(word: string): string[] {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return [];
  const out = new Set<string>();
  for (const [gb, us] of IRREGULAR)
    for (const [from, to] of [
      [gb, us],
      [us, gb],
    ] as const)
      if (word.startsWith(from) && IRREGULAR_ENDINGS.has(word.slice(from.length)))
        out.add(to + word.slice(from.length));
  applyRules(word, GB_TO_US, out);
  applyRules(word, US_TO_GB, out);
  out.delete(word);
  return [...out].slice(0, MAX_VARIANTS);
}

/** A replacement in the case the user typed it ("Colour" → "Color", "DNA"-style capitals kept). */
export function inCaseOf(typed: string, replacement: string): string {
  if (typed === typed.toUpperCase() && typed.length > 1) return replacement.toUpperCase();
  if (typed[0] === typed[0]?.toUpperCase()) return replacement[0]!.toUpperCase() + replacement.slice(1);
  return replacement;
}
