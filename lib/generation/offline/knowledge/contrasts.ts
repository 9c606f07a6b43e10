import { isNounPhrase, isPluralNoun } from "@/lib/text/phrases";
import { contentWords, stem } from "@/lib/text/tokenize";
import type { ISentence } from "./sentences";

/**
 * Comparisons the passages state in one sentence, two subjects with the same verb and different
 * complements: "Shoots exhibit negative gravitropism, whereas roots exhibit positive
 * gravitropism"; "The leading strand is synthesized continuously, whereas the lagging strand is
 * synthesized in short stretches called Okazaki fragments". Swapping the complements gives a
 * statement that is definitely wrong and of the same kind (a student's mix-up), which is what the
 * compare and claim forms of `forms/bio-contrast.ts` need.
 */
export interface IContrast {
  /** The two subjects as written ("Shoots", "the lagging strand"). */
  a: string;
  b: string;
  /** Each subject's predicate, from its verb on ("exhibit negative gravitropism"). */
  pa: string;
  pb: string;
  sentence: string;
  /** The second sentence when the contrast is stated across two sentences of one block. */
  second?: string;
  /** "Unlike A, B …": only B's predicate is stated (`pb`; `pa` is empty), A lacks it. */
  unlike?: boolean;
  chunkKey: string;
}

/** Auxiliaries, copulas and modals: a clause's verb group may open with one. */
const AUX =
  /^(?:is|are|was|were|has|have|had|does|do|did|can|cannot|may|will|must|might|could|should|would)$/i;
/** Lexical verbs a contrast may turn on (a closed list: the tagger misreads short clauses). */
const LEXICAL = new Set(
  `absorb affect allow arise become bind break carry cause consist contain convert depend develop differ
  digest direct divide exhibit express feed form function grow include infect inhibit lack lead lie live
  make move need occur prevent produce promote protect provide reach receive reduce reflect regulate release
  remain replicate reproduce require respond result secrete send show spread store stimulate surround
  synthesize synthesise take tend transcribe translate transport travel undergo use`.split(/\s+/),
);
/**
 * Verbs of the physical sciences a contrast turns on ("a convex lens converges …, a concave lens
 * diverges …"), read only by the wave-14 readers (`wide`), not by the swap claims' "whereas".
 */
const MOTION_VERBS = new Set(
  `act attract bend conduct converge diverge emit flow increase decrease insulate oscillate pass point
  propagate refract repel rise fall rotate spin vibrate`.split(/\s+/),
);
const MODAL = /^(?:can|cannot|may|will|must|might|could|should|would)$/i;

/** The verb's base form when `w` is an inflection of a listed verb ("carries" → "carry"), else null. */
function lexical(w: string, wide = false): { lemma: string; number: TNumber } | null {
  const x = w.toLowerCase();
  const has = (v: string) => LEXICAL.has(v) || (wide && MOTION_VERBS.has(v));
  if (has(x)) return { lemma: x, number: "pl" };
  const tries: [string, TNumber][] = [
    [x.replace(/ies$/, "y"), "sg"],
    [x.replace(/es$/, ""), "sg"],
    [x.replace(/s$/, ""), "sg"],
    [x.replace(/ed$/, ""), "any"],
    [x.replace(/d$/, ""), "any"],
    [x.replace(/ied$/, "y"), "any"],
  ];
  for (const [lemma, number] of tries) if (lemma !== x && has(lemma)) return { lemma, number };
  return null;
}

/** The subject's grammatical number as its verb shows it ("any": a modal or a past form). */
type TNumber = "sg" | "pl" | "any";
const auxNumber = (w: string): TNumber =>
  /^(?:is|has|was|does)$/i.test(w) ? "sg" : /^(?:are|have|were|do)$/i.test(w) ? "pl" : "any";

/** A subject that points elsewhere or quantifies vaguely cannot stand in a question. */
const BAD_SUBJECT =
  /^(?:it|its|they|them|this|that|these|those|there|which|some|many|most|other|others|each|all|one|both|such|in|on|for|at|by|with|during|when|if|as|from|after|before|while|here|we|you)\b/i;
/** Complements that lean on the other clause or on a figure. */
const BAD_COMPLEMENT =
  /\b(?:the same|similar|different|do so|then|shown|for example|for instance|those|them|it|its|this|these|they|their|too|also|as well|figure|table|whereas|while|but|however|respectively|vice versa)\b|\(|\)/i;

const stemsOf = (s: string) => new Set(contentWords(s).map(stem));
const bareWords = (s: string) =>
  s
    .toLowerCase()
    .replace(/\([^)]*\)/g, " ")
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((w) => w && !/^(?:the|a|an)$/.test(w));
/** The head noun of a subject: the word before "of" ("the somas of motor neurons" → "somas"), else the last. */
const headOf = (subject: string) => {
  const ws = bareWords(subject);
  const of = ws.indexOf("of");
  return of > 0 ? ws[of - 1] : ws.at(-1);
};
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** One clause read as subject + predicate (from its verb on), or null when it does not read so. */
function clause(
  text: string,
  wide = false,
): { subject: string; predicate: string; lemma: string; number: TNumber } | null {
  const ws = text.trim().split(/\s+/);
  for (let i = 1; i < Math.min(ws.length - 1, 7); i++) {
    const w = ws[i]!.replace(/[^\p{L}-]/gu, "");
    const lex = AUX.test(w) ? null : lexical(w, wide);
    if (!AUX.test(w) && !lex) continue;
    const subject = ws.slice(0, i).join(" ");
    const predicate = ws.slice(i).join(" ");
    const bare = subject.replace(/^(?:the|a|an)\s+/i, "");
    if (
      BAD_SUBJECT.test(subject) ||
      /\b\p{L}+ly\b/u.test(subject) ||
      ONE.test(predicate) ||
      !isNounPhrase(bare.replace(/\s*\([^)]*\)/g, "")) ||
      /[,;:]/.test(subject)
    )
      return null;
    if (
      BAD_COMPLEMENT.test(predicate.replace(/^\S+\s+/, "")) ||
      words(predicate) > 18 ||
      /[;:]/.test(predicate)
    )
      return null;
    const number = lex ? lex.number : MODAL.test(w) ? "any" : auxNumber(w);
    return { subject, predicate, lemma: lex ? lex.lemma : w.toLowerCase(), number };
  }
  return null;
}

/** A predicate that stands for the other's noun ("… has one", "… do not"). */
const ONE = /\b(?:one|ones|do not|does not|did not|not)\.?$/i;

/** Lead-ins that do not change what a sentence states. */
const LEAD_IN = /^(?:for example|for instance|in general|generally|typically|in other words),\s+/i;

/**
 * "A …, whereas B …": two noun-phrase subjects, each with its own predicate, whose verbs agree in
 * number the same way (so the predicates can be swapped and stay grammatical), and no clause
 * leaning on the other ("those", "the same", "others").
 */
export function readContrast(s: Pick<ISentence, "text" | "chunkKey">): IContrast | null {
  const text = clean(s.text);
  // "A …, whereas B …" and the book's "A …; whereas, B …".
  const parts = text.split(/,\s+(?:whereas|while)\s+|;\s+whereas,?\s+/);
  if (parts.length !== 2 || !parts[1]!.endsWith(".")) return null;
  if (/\.\s/.test(text.slice(0, -1))) return null;
  const l = clause(parts[0]!);
  const r = clause(parts[1]!.slice(0, -1));
  if (!l || !r || !contrasting(l, r, false)) return null;
  return {
    a: l.subject,
    b: r.subject,
    pa: l.predicate,
    pb: r.predicate,
    sentence: s.text,
    chunkKey: s.chunkKey,
  };
}

const clean = (t: string) =>
  t
    .replace(/\s+/g, " ")
    .trim()
    .replace(LEAD_IN, "")
    .replace(/\s*\((?:figure|table)[^)]*\)(?=\.$)/i, "");

type TClause = NonNullable<ReturnType<typeof clause>>;

/**
 * Whether two clauses state different features of two different things of one kind, so that
 * swapping the features gives a wrong statement. Two separate sentences must be closer in form
 * (`apart`): the same verb, and subjects sharing their head word ("the outer membrane" / "the
 * inner membrane").
 */
function contrasting(l: TClause, r: TClause, apart: boolean): boolean {
  if (l.number !== r.number) return false;
  // "can / may" claims stay true when swapped ("long-term stress can affect hormone levels").
  if (MODAL.test(l.predicate.split(" ")[0]!) || MODAL.test(r.predicate.split(" ")[0]!)) return false;
  // Subjects compared word by word, letters kept ("the R strain" / "the S strain").
  const sa = new Set(bareWords(l.subject));
  const sb = new Set(bareWords(r.subject));
  if (sa.size === 0 || sb.size === 0 || [...sa].every((x) => sb.has(x)) || [...sb].every((x) => sa.has(x)))
    return false;
  if (bareWords(l.predicate).join(" ") === bareWords(r.predicate).join(" ")) return false;
  const pa = stemsOf(l.predicate);
  const pb = stemsOf(r.predicate);
  // One predicate inside the other: the swapped claim may still hold ("found in the renal cortex").
  if ([...pa].every((x) => pb.has(x)) || [...pb].every((x) => pa.has(x))) return false;
  // Two things of one kind, said in parallel: the subjects share their head word ("superficial /
  // systemic mycoses") or the predicates share a content word ("exhibit negative / positive
  // gravitropism"). "The inhibition of FSH and LH prevents …, while the progesterone is elevated" is not a contrast.
  const headA = headOf(l.subject);
  const headB = headOf(r.subject);
  const sameHead = headA !== undefined && headA === headB;
  if (apart) {
    if (!sameHead || l.lemma !== r.lemma) return false;
  } else if (!sameHead && ![...pb].some((x) => pa.has(x))) return false;
  // A subject named in the other predicate would make the swapped claim name itself.
  const inText = (name: string, t: string) => {
    const st = stemsOf(t);
    const sn = [...stemsOf(name)];
    return sn.length > 0 && sn.every((x) => st.has(x));
  };
  return !inText(l.subject, r.predicate) && !inText(r.subject, l.predicate);
}

/**
 * Two nearby sentences of one block that state the same kind of feature of two things of one kind
 * ("The outer membrane is permeable to small molecules." … "The inner membrane is impermeable to
 * ions."): a contrast the text makes across sentences.
 */
export function readContrastPair(
  x: Pick<ISentence, "text" | "chunkKey">,
  y: Pick<ISentence, "text" | "chunkKey">,
): IContrast | null {
  const tx = clean(x.text);
  const ty = clean(y.text);
  if (!tx.endsWith(".") || !ty.endsWith(".") || /[,;]/.test(tx) || /[,;]/.test(ty)) return null;
  const l = clause(tx.slice(0, -1));
  const r = clause(ty.slice(0, -1));
  if (!l || !r || !contrasting(l, r, true)) return null;
  return {
    a: l.subject,
    b: r.subject,
    pa: l.predicate,
    pb: r.predicate,
    sentence: x.text,
    second: y.text,
    chunkKey: x.chunkKey,
  };
}

/**
 * "Unlike xylem conducting cells, phloem conducting cells are alive at maturity": B has what A
 * lacks. Swapped ("Unlike phloem conducting cells, xylem conducting cells are …") it is wrong.
 * Both must be noun phrases of the same number (the predicate agrees with B), not "in prokaryotes",
 * "with animals", "many other animals", "which …".
 */
export function readUnlike(s: Pick<ISentence, "text" | "chunkKey">): IContrast | null {
  const text = clean(s.text);
  const m = /^Unlike\s+([^,]{3,60}),\s+(.+)\.$/.exec(text);
  if (!m || /\.\s/.test(text.slice(0, -1))) return null;
  const a = m[1]!.trim();
  const bareA = a.replace(/^(?:the|a|an)\s+/i, "");
  if (BAD_SUBJECT.test(a) || !isNounPhrase(bareA) || /\b\p{L}+ly\b/u.test(a)) return null;
  // A trailing reason or consequence is cut ("…, since they are eukaryotes"; "…, allowing …").
  const main = m[2]!.replace(/,\s+(?:which|allowing|since|because|although|including|so that)\b.*$/i, "");
  const r = clause(main);
  // A modal is fine here: "Unlike A, B can …" says A cannot.
  if (!r || /,/.test(r.predicate)) return null;
  if (isPluralNoun(bareA) !== isPluralNoun(r.subject.replace(/^(?:the|a|an)\s+/i, ""))) return null;
  const sa = new Set(bareWords(a));
  const sb = new Set(bareWords(r.subject));
  if ([...sa].every((x) => sb.has(x)) || [...sb].every((x) => sa.has(x))) return null;
  const st = stemsOf(r.predicate);
  if ([...stemsOf(a)].every((x) => st.has(x))) return null;
  return { a, b: r.subject, pa: "", pb: r.predicate, unlike: true, sentence: s.text, chunkKey: s.chunkKey };
}

/** The stated contrasts among the question-worthy sentences (lesson text only). */
export function extractContrasts(sentences: readonly ISentence[]): IContrast[] {
  const out: IContrast[] = [];
  for (const s of sentences) {
    if (!s.standalone || s.sideBox) continue;
    const c = readContrast(s) ?? readUnlike(s);
    if (c) out.push(c);
  }
  const lesson = sentences.filter((s) => s.standalone && !s.sideBox);
  for (let i = 0; i < lesson.length; i++)
    for (let j = i + 1; j < Math.min(lesson.length, i + 4); j++) {
      const x = lesson[i]!;
      const y = lesson[j]!;
      if (x.chunkKey !== y.chunkKey || x.heading !== y.heading) continue;
      const c = readContrastPair(x, y);
      if (c) out.push(c);
    }
  return out;
}

/**
 * Wave 14: contrasts the exposition states without "whereas" — the usual wording of a physics
 * text ("Kinetic energy is conserved in an elastic collision, but not in an inelastic collision";
 * "A mirror that curves inward is called a concave mirror, whereas one that curves outward is
 * called a convex mirror"; "… In contrast, B …"; "A …, but B …"). Read only for the written
 * Understand and Evaluate forms (`forms/written-contrast.ts`), not for the swap claims.
 */
export interface IWideContrast extends IContrast {
  /**
   * The kind the sentence names for both ("mirror" in "a mirror that curves inward …"), plural:
   * used when the two names share no head word.
   */
  kind?: string;
  /** The features are what names each ("… is called a concave mirror"): no claim about a kind. */
  named?: boolean;
  /**
   * `a` and `b` are two settings ("an elastic collision", "a transverse wave") and `pa` / `pb` whole
   * clauses true in each ("kinetic energy is conserved" / "kinetic energy is not conserved").
   */
  scene?: boolean;
}

/** Connectives that open the second sentence of a contrast stated across two sentences. */
const OPENER = /^(?:in contrast|by contrast|on the other hand|conversely),\s+/i;

/** "A …, but B …": two subjects, two predicates of one kind (the rules of "whereas"). */
export function readBut(s: Pick<ISentence, "text" | "chunkKey">): IWideContrast | null {
  const text = clean(s.text);
  const parts = text.split(/,\s+but\s+/);
  if (parts.length !== 2 || !parts[1]!.endsWith(".") || /\.\s/.test(text.slice(0, -1))) return null;
  const l = clause(parts[0]!, true);
  const r = clause(parts[1]!.slice(0, -1), true);
  if (!l || !r || !contrasting(l, r, false)) return null;
  return {
    a: l.subject,
    b: r.subject,
    pa: l.predicate,
    pb: r.predicate,
    sentence: s.text,
    chunkKey: s.chunkKey,
  };
}

/**
 * "A curved mirror that curves inward is called a concave mirror, whereas one that curves outward
 * is called a convex mirror": two named counterparts of one stated kind, each with the feature
 * that names it. Only "that / which" clauses (their verb agrees with the name: "is called").
 */
export function readCalledPair(s: Pick<ISentence, "text" | "chunkKey">): IWideContrast | null {
  const text = clean(s.text);
  const m =
    /^(?:(?:A|An|The)\s+)?([\p{L}-]+(?:\s[\p{L}-]+){0,2})\s(?:that|which)\s([^,;]{3,60}?)\s(is|are)\s+called\s+((?:an?|the)\s+)?([^,;()]{2,40}?),\s+(?:whereas|while)\s+(?:one|ones|those|the ones?)\s(?:that|which)\s([^,;]{3,60}?)\s(?:is|are)\s+called\s+((?:an?|the)\s+)?([^,;()]{2,40})\.$/u.exec(
      text,
    );
  if (!m) return readNamedPair(s, text);
  const [, genus, ra, copula, artA = "", nameA, rb, artB = "", nameB] = m;
  const a = `${artA}${nameA!.trim()}`;
  const b = `${artB}${nameB!.trim()}`;
  if (BAD_SUBJECT.test(genus!) || !isNounPhrase(genus!) || !isNounPhrase(nameA!) || !isNounPhrase(nameB!))
    return null;
  // The relative clause must open with a verb of its own ("curves inward"; not "is called …").
  const va = ra!.split(/\s+/)[0]!;
  const vb = rb!.split(/\s+/)[0]!;
  if (/^(?:is|are|called|named)$/i.test(va) || /^(?:is|are|called|named)$/i.test(vb)) return null;
  if (BAD_COMPLEMENT.test(ra!) || BAD_COMPLEMENT.test(rb!)) return null;
  const sa = new Set(bareWords(a));
  if (bareWords(b).every((w) => sa.has(w))) return null;
  const plural = copula === "are";
  const head = genus!.trim().toLowerCase();
  return {
    a,
    b,
    pa: ra!.trim(),
    pb: rb!.trim(),
    kind: plural ? head : pluralWord(head),
    named: true,
    sentence: s.text,
    chunkKey: s.chunkKey,
  };
}

/**
 * "The lowest resonant frequency is called the fundamental, while all higher resonant frequencies
 * are called overtones": two described things of one head noun, each named. The kind is the words
 * the two descriptions end on alike ("resonant frequencies").
 */
function readNamedPair(s: Pick<ISentence, "text" | "chunkKey">, text: string): IWideContrast | null {
  const m =
    /^((?:the|an?)\s)?([\p{L}-]+(?:\s[\p{L}-]+){0,4})\s(is|are)\s+called\s+((?:an?|the)\s+)?([^,;()]{2,40}?),\s+(?:whereas|while)\s+((?:all|the|an?)\s)?([\p{L}-]+(?:\s[\p{L}-]+){0,4})\s(is|are)\s+called\s+((?:an?|the)\s+)?([^,;()]{2,40})\.$/iu.exec(
      text,
    );
  if (!m) return null;
  const [, detA = "", descA, copA, artA = "", nameA, detB = "", descB, copB, artB = "", nameB] = m;
  if (!isNounPhrase(descA!) || !isNounPhrase(descB!) || !isNounPhrase(nameA!) || !isNounPhrase(nameB!))
    return null;
  if (
    BAD_SUBJECT.test(descA!) ||
    BAD_SUBJECT.test(descB!) ||
    /\b(?:that|which|who|whose)\b/i.test(`${descA} ${descB}`)
  )
    return null;
  const wa = descA!.toLowerCase().split(/\s+/);
  const wb = descB!.toLowerCase().split(/\s+/);
  const sg = (w: string) => w.replace(/ies$/, "y").replace(/([^s])s$/, "$1");
  const tail: string[] = [];
  while (
    tail.length < Math.min(wa.length, wb.length) - 1 &&
    sg(wa[wa.length - 1 - tail.length]!) === sg(wb[wb.length - 1 - tail.length]!)
  )
    tail.unshift(sg(wa[wa.length - 1 - tail.length]!));
  if (tail.length === 0 || /^(?:one|ones|thing|things|part|parts|type|types|kind|kinds)$/.test(tail.at(-1)!))
    return null;
  const a = `${artA}${nameA!.trim()}`;
  const b = `${artB}${nameB!.trim()}`;
  const sa = new Set(bareWords(a));
  if (bareWords(b).every((w) => sa.has(w))) return null;
  return {
    a,
    b,
    pa: `${copA!.toLowerCase()} ${detA.toLowerCase()}${descA}`,
    pb: `${copB!.toLowerCase()} ${detB.toLowerCase()}${descB}`,
    kind: pluralWord(tail.join(" ")),
    named: true,
    sentence: s.text,
    chunkKey: s.chunkKey,
  };
}

/** A regular plural of a phrase's last word ("curved mirror" → "curved mirrors"). */
const pluralWord = (phrase: string) =>
  phrase.replace(/([^\s]+)$/, (w) =>
    /(?:s|x|z|ch|sh)$/.test(w) ? `${w}es` : /[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`,
  );

/**
 * "Kinetic energy is conserved in an elastic collision, but not in an inelastic collision": a
 * statement that holds in one setting and not in its counterpart of one kind.
 */
export function readScene(s: Pick<ISentence, "text" | "chunkKey">): IWideContrast | null {
  const text = clean(s.text);
  const m =
    /^([^,;]{3,60}?)\s+in\s+((?:an?|the)\s+[^,;()]{3,40}?),?\s+but\s+not\s+in\s+((?:an?|the)\s+[^,;()]{3,40})\.$/iu.exec(
      text,
    );
  if (!m) return null;
  const statement = m[1]!.trim();
  // A bare "subject verb" ("Current flows") is read with a placeholder complement, then cut back.
  const read = clause(`${statement} …`, true);
  const c = read && { ...read, predicate: read.predicate.replace(/\s…$/, "") };
  if (!c || /\bnot\b/i.test(statement) || MODAL.test(c.lemma)) return null;
  // The denial: "S is not P" after a copula; "S does / do not V …" after a listed verb in the present.
  const aux = /^(is|are|was|were)\s+(.+)$/i.exec(c.predicate);
  const rest = c.predicate.split(/\s+/).slice(1).join(" ");
  const denial = aux
    ? `${aux[1]} not ${aux[2]}`
    : c.number === "sg" && !AUX.test(c.lemma)
      ? `does not ${c.lemma} ${rest}`
      : c.number === "pl" && !AUX.test(c.lemma)
        ? `do not ${c.lemma} ${rest}`
        : null;
  if (!denial) return null;
  const a = m[2]!.trim();
  const b = m[3]!.trim();
  if (!settings(a, b)) return null;
  const subject = lowerFirst(c.subject);
  return {
    a,
    b,
    pa: `${subject} ${c.predicate}`,
    pb: `${subject} ${denial.trim()}`,
    scene: true,
    sentence: s.text,
    chunkKey: s.chunkKey,
  };
}

/**
 * "A …. In contrast, B …": two sentences in a row, the second opening with a contrast connective,
 * each one subject-predicate clause of one kind (the rules of "whereas": the connective states the
 * contrast).
 */
export function readOpenerPair(
  x: Pick<ISentence, "text" | "chunkKey">,
  y: Pick<ISentence, "text" | "chunkKey">,
): IWideContrast | null {
  const tx = clean(x.text);
  if (!OPENER.test(y.text.trim())) return null;
  const ty = clean(y.text.trim().replace(OPENER, ""));
  if (!tx.endsWith(".") || !ty.endsWith(".") || /[,;]/.test(tx) || /[,;]/.test(ty)) return null;
  const l = clause(tx.slice(0, -1), true);
  const r = clause(ty.slice(0, -1), true);
  if (!l || !r || !contrasting(l, r, false)) return null;
  return {
    a: l.subject,
    b: r.subject,
    pa: l.predicate,
    pb: r.predicate,
    sentence: x.text,
    second: y.text,
    chunkKey: x.chunkKey,
  };
}

/**
 * "In a transverse wave, the disturbance is perpendicular to …" / "In contrast, in a longitudinal
 * wave, the disturbance is parallel to …": one subject, stated of two settings with the same verb
 * and a different complement.
 */
export function readScenePair(
  x: Pick<ISentence, "text" | "chunkKey">,
  y: Pick<ISentence, "text" | "chunkKey">,
): IWideContrast | null {
  if (!OPENER.test(y.text.trim())) return null;
  const IN = /^In\s+((?:an?|the)\s+[^,;()]{3,40}),\s+([^,;]{8,120})\.$/iu;
  const mx = IN.exec(clean(x.text));
  const my = IN.exec(clean(y.text.trim().replace(OPENER, "")));
  if (!mx || !my) return null;
  const l = clause(mx[2]!, true);
  const r = clause(my[2]!, true);
  if (!l || !r || l.subject.toLowerCase() !== r.subject.toLowerCase() || l.lemma !== r.lemma) return null;
  const pa = stemsOf(l.predicate);
  const pb = stemsOf(r.predicate);
  if ([...pa].every((w) => pb.has(w)) || [...pb].every((w) => pa.has(w))) return null;
  if (MODAL.test(l.lemma) || /\bnot\b/i.test(`${l.predicate} ${r.predicate}`)) return null;
  const a = mx[1]!.trim();
  const b = my[1]!.trim();
  if (!settings(a, b)) return null;
  return {
    a,
    b,
    pa: `${lowerFirst(l.subject)} ${l.predicate}`,
    pb: `${lowerFirst(r.subject)} ${r.predicate}`,
    scene: true,
    sentence: x.text,
    second: y.text,
    chunkKey: x.chunkKey,
  };
}

const lowerFirst = (s: string) => (/^\p{Lu}\p{Ll}/u.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

/** Two settings that are noun phrases, neither inside the other ("an elastic / inelastic collision"). */
function settings(a: string, b: string): boolean {
  if (!isNounPhrase(a.replace(/^(?:an?|the)\s+/i, "")) || !isNounPhrase(b.replace(/^(?:an?|the)\s+/i, "")))
    return false;
  const sa = new Set(bareWords(a));
  const sb = new Set(bareWords(b));
  return ![...sa].every((x) => sb.has(x)) && ![...sb].every((x) => sa.has(x));
}

/** The contrasts of the new wordings among the lesson's sentences (none that `extractContrasts` reads). */
export function extractWideContrasts(sentences: readonly ISentence[]): IWideContrast[] {
  const out: IWideContrast[] = [];
  const lesson = sentences.filter((s) => !s.sideBox);
  for (const s of lesson) {
    if (!s.standalone) continue;
    const c = readScene(s) ?? readCalledPair(s) ?? readBut(s);
    if (c) out.push(c);
  }
  for (let i = 0; i + 1 < lesson.length; i++) {
    const x = lesson[i]!;
    const y = lesson[i + 1]!;
    if (!x.standalone || x.chunkKey !== y.chunkKey || x.heading !== y.heading) continue;
    const c = readOpenerPair(x, y) ?? readScenePair(x, y);
    if (c) out.push(c);
  }
  return out;
}
