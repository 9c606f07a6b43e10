import { describe, expect, it } from "vitest";
import { synset } from "@/lib/text/wordnet";
import {
  generalProfile,
  labelLift,
  meaningLift,
  meaningProfile,
  stemMeaning,
  wordMeaning,
} from "@/lib/text/wordnet-domains";

/** The first lemma of a `d:<pos><offset>` domain label. */
const domainName = (label: string) =>
  synset({ pos: label[2] as "n", offset: Number(label.slice(3)) }).lemmas[0]?.toLowerCase();
const domainsOf = (word: string) => [...wordMeaning(word).domains.keys()].map(domainName);

describe("WordNet topic domains and supersenses", () => {
  it("reads the topic domain (;c) of a word's senses", () => {
    expect(domainsOf("offside")).toContain("sport");
    expect(domainsOf("torque")).toContain("physics");
    // An adjective carries a domain too.
    expect(domainsOf("igneous")).toContain("geology");
  });

  it("labels noun and verb senses with their lexicographer file", () => {
    expect([...wordMeaning("carbonara").supersenses.keys()]).toEqual(["s:noun.food"]);
    expect(wordMeaning("photosynthesis").supersenses.get("s:noun.process")).toBeCloseTo(1);
    // Weights of each kind sum to 1 over the senses that have one.
    const rock = [...wordMeaning("rock").supersenses.values()].reduce((a, b) => a + b, 0);
    expect(rock).toBeCloseTo(1);
    expect(wordMeaning("xqzvv").supersenses.size).toBe(0);
  });

  it("maps an index term (Porter stem) back to a lemma", () => {
    expect(stemMeaning("photosynthesi").supersenses.get("s:noun.process")).toBeCloseTo(1);
  });

  it("lifts the labels a scope uses more than WordNet does, and lowers the ones it does not", () => {
    // Everyday English: 51 million subtitle words, most of them labelled.
    const bg = generalProfile();
    expect(bg.total).toBeGreaterThan(40_000_000);
    expect(bg.supersenses.get("s:noun.food")).toBeGreaterThan(0);
    // A kitchen scope: food words in every passage, one sport word once.
    const kitchen = meaningProfile([
      ["pasta", 400],
      ["carbonara", 120],
      ["bake", 300],
      ["oven", 250],
      ["flour", 300],
      ["offsid", 1],
    ]);
    const food = labelLift("s:noun.food", "supersenses", kitchen);
    expect(food).toBeGreaterThan(1);
    expect(meaningLift("spaghetti", kitchen).supersense).toBeGreaterThan(1);
    const sport = meaningLift("offside", kitchen);
    expect(sport.domain).not.toBeNull();
    expect(sport.domain!).toBeLessThan(0);
    // An empty scope says nothing.
    expect(labelLift("s:noun.food", "supersenses", meaningProfile([]))).toBe(0);
    // A word WordNet does not know has no labels.
    expect(meaningLift("xqzvv", kitchen)).toEqual({ domain: null, supersense: null });
  });

  it("is deterministic", () => {
    const a = meaningProfile([
      ["cell", 10],
      ["membran", 5],
    ]);
    const b = meaningProfile([
      ["cell", 10],
      ["membran", 5],
    ]);
    expect([...a.supersenses]).toEqual([...b.supersenses]);
    expect(a.total).toBe(15);
  });
});
