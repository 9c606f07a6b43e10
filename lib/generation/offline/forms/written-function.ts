import type { IKnowledge, ISentence } from "@/lib/generation/offline/knowledge";
import { needsContext } from "@/lib/generation/offline/knowledge/sentences";
import { isNounPhrase } from "@/lib/text/phrases";
import { contentWords, stem } from "@/lib/text/tokenize";
import { capital, clip, formUseKey, type IForm, keywords, lower, stripEnd, written } from "./common";
import { LEANS_ON_CONTEXT } from "./recall";
import { ABOUT_NAMES } from "./relations";

/**
 * Understand, written: explain the role of a structure or agent from the function the passages
 * state for it ("Contractile vacuoles allow the organism to excrete excess water"; "Ribosomes are
 * responsible for protein synthesis"; "The function of the xylem is to carry water …") AND a
 * further sentence of the selection on the same thing and the same function, so the answer joins
 * two statements rather than copying one. Marks: the function (what it does, for what), and how
 * the further statement bears on it.
 */

export interface IFunction {
  /** The thing that has the function, as written ("Contractile vacuoles"). */
  agent: string;
  /** What it does, from its verb on ("allow the organism to excrete excess water"). */
  does: string;
  sentence: string;
  chunkKey: string;
}

const VERB = String.raw`(?:allows?|enables?|permits?|helps?)\s+(?!for\b)\S|(?:functions?|serves?|acts?|works?)\s+(?:as|to)\s+\S|(?:is|are)\s+(?:primarily\s+|mainly\s+)?responsible\s+for\s+\S`;
const AGENT_DOES = new RegExp(String.raw`^(.{3,60}?)\s+((?:${VERB}).*)$`, "i");
const ROLE_OF =
  /^The\s+(?:main\s+|primary\s+|chief\s+|most\s+\p{L}+\s+)?(?:function|role|job|purpose)\s+of\s+(.{3,60}?)\s+is\s+((?:to|the)\s+.+)$/iu;

/** Subjects that point elsewhere, quantify vaguely or are clauses, not a thing with a role. */
const BAD_AGENT =
  /^(?:it|its|they|them|this|that|these|those|there|which|what|some|many|most|other|others|each|all|one|both|such|in|on|for|at|by|with|during|when|if|as|from|after|before|while|here|we|you|doing|being)\b|\b(?:and|or)\b|[,;:()0-9]/i;

/** Nouns that name a part by its relation to a whole left unsaid. */
const RELATIONAL =
  /^(?:subunits?|parts?|portions?|regions?|layers?|sides?|ends?|components?|segments?|sections?|halves|half|pieces?|units?|domains?|branch(?:es)?|stages?|phases?|steps?|members?|ones?)$/i;

/** One-word agents too broad to name a particular thing without the passage. */
const BROAD =
  /^(?:cells?|organisms?|things?|parts?|structures?|molecules?|systems?|process(?:es)?|organs?|tissues?|proteins?|animals?|plants?|species|bodies|body)$/i;

/** The function statements of the selection's lesson sentences. */
export function extractFunctions(sentences: readonly ISentence[]): IFunction[] {
  const out: IFunction[] = [];
  for (const s of sentences) {
    if (!s.standalone || s.sideBox || LEANS_ON_CONTEXT.test(s.text) || needsContext(s.text)) continue;
    // The first clause only: "…; it also supports …" and ", such as …" add what the role is not.
    const t = stripEnd(
      s.text
        .replace(/\s+/g, " ")
        .trim()
        .replace(/(?:;|,\s+(?:such as|including|which|whereas|while|but)\b).*$/i, ""),
    );
    if (t.split(/\s+/).length > 30 || /[:]/.test(t)) continue;
    const role = ROLE_OF.exec(t);
    const m = role ?? AGENT_DOES.exec(t);
    if (!m) continue;
    const agent = m[1]!.trim();
    // "The function of X is to …" / "… is the translation of …": what X serves to do, or serves for.
    const plural = /s$/.test(agent) ? "" : "s";
    const does = !role
      ? m[2]!.trim()
      : /^to\s/i.test(m[2]!)
        ? `serve${plural} ${m[2]!.trim()}`
        : `${plural ? "is" : "are"} responsible for ${m[2]!.trim()}`;
    const bare = agent.replace(/^(?:the|a|an)\s+/i, "");
    if (BAD_AGENT.test(agent) || !isNounPhrase(bare) || agent.split(/\s+/).length > 6) continue;
    // "The small subunit", "the outer layer": a part named only by its place needs the whole it belongs to.
    if (RELATIONAL.test(bare.split(/\s+/).at(-1) ?? "")) continue;
    // "The cells are responsible for …": one broad word names no particular thing (dev reading).
    if (!/\s/.test(bare) && BROAD.test(bare)) continue;
    // What it does must say something (not "allows it to do so"), with no pronoun to resolve.
    if (contentWords(does).length < 3 || /\b(?:it|its|they|them|their|this|these|those|so)\b/i.test(does))
      continue;
    out.push({ agent, does, sentence: s.text, chunkKey: s.chunkKey });
  }
  return out;
}

const cache = new WeakMap<IKnowledge, IFunction[]>();
const functionsOf = (kb: IKnowledge) => {
  let hit = cache.get(kb);
  if (!hit) {
    hit = extractFunctions(kb.sentences);
    cache.set(kb, hit);
  }
  return hit;
};

const stems = (s: string) => new Set(contentWords(s).map(stem));

/**
 * A further lesson sentence on the same thing and the same function: it names the agent's head
 * word and shares a content word of what the agent does (beyond the agent's own words).
 */
export function furtherOnFunction(kb: IKnowledge, f: IFunction, used: ReadonlySet<string>): ISentence | null {
  const agent = stems(f.agent);
  const head = [...stems(f.agent.replace(/\s+of\s+.*$/i, ""))].at(-1);
  const does = [...stems(f.does)].filter((x) => !agent.has(x));
  if (!head || does.length === 0) return null;
  const usable = kb.sentences.filter((s) => {
    if (!s.standalone || s.sideBox || s.text === f.sentence || used.has(s.text)) return false;
    if (LEANS_ON_CONTEXT.test(s.text) || needsContext(s.text)) return false;
    if (/^\s*(?:it|they|this|these|those|such)\b/i.test(s.text)) return false;
    const n = s.text.split(/\s+/).length;
    // It names the whole agent ("saddle joints", not any "joints").
    const st = stems(s.text);
    return n >= 6 && n <= 32 && st.has(head) && [...agent].every((x) => st.has(x));
  });
  // On the same function (a word of what it does), and about the thing, not its name ("so named
  // because …"): a sentence on the same thing only (dev reading: "the swim bladder is believed to be
  // homologous to …" for its role in buoyancy) develops nothing.
  // Two words of it at least: one shared word ("blood" in "veins bring blood back to the heart" for
  // the heart's pumping, "seeds" in "two major innovations were seeds and pollen") develops nothing.
  return (
    usable.find((s) => {
      const st = stems(s.text);
      return does.filter((x) => st.has(x)).length >= 2 && !ABOUT_NAMES.test(s.text);
    }) ?? null
  );
}

export const explainFunction: IForm = {
  id: "explain-function",
  fits: (type, level) => type !== "mcq" && level === "Understand",
  available: (kb) => functionsOf(kb).length,
  *build(env) {
    const all = functionsOf(env.kb);
    if (all.length === 0)
      env.trace?.("no stated function (X allows / enables / functions to / is responsible for …)");
    const long = env.slot.type === "long";
    for (const f of all) {
      if (env.used.has(f.sentence) || env.used.has(formUseKey("explain-function", f.sentence))) {
        env.trace?.("function already used in the set");
        continue;
      }
      const more = furtherOnFunction(env.kb, f, env.used);
      if (!more) {
        env.trace?.("no further sentence on the same thing and function");
        continue;
      }
      const agent = lower(f.agent);
      const q = written(env, {
        prompt: `Explain the role of ${agent}${long ? ", using what the text says about how it is carried out" : ""}.`,
        answer: `${capital(agent)} ${stripEnd(f.does)}. ${capital(stripEnd(more.text))}.`,
        points: [
          { point: `States the role: ${agent} ${clip(stripEnd(f.does), 140)}`, weight: long ? 2 : 1 },
          {
            point: `Develops it with what the text adds: ${clip(lower(stripEnd(more.text)), 140)}`,
            weight: 2,
          },
          ...(long
            ? [{ point: `Links the two: shows how what is added bears on the role of ${agent}`, weight: 1 }]
            : []),
        ],
        keywords: keywords([f.agent, f.does, more.text]),
        sources: [
          { chunkKey: f.chunkKey, quote: f.sentence },
          { chunkKey: more.chunkKey, quote: more.text },
        ],
      });
      if (q) yield q;
    }
  },
};
