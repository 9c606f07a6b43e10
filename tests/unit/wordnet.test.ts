import { describe, expect, it } from "vitest";
import {
  hypernyms,
  isKnownWord,
  senseCount,
  senses,
  synonyms,
  synset,
  usageCount,
  warmWordNet,
} from "@/lib/text/wordnet";

describe("wordnet", () => {
  it("loads the index files quickly", () => {
    // Generous bound for a loaded CI machine; ~200 ms measured on 2 cores.
    expect(warmWordNet()).toBeLessThan(2000);
  });

  it("finds synonyms through shared synsets", () => {
    const car = synonyms("car");
    expect(car).toContain("automobile");
    expect(car).toContain("auto");
    expect(car).not.toContain("car");
    expect(synonyms("automobile")).toContain("car");
  });

  it("de-inflects regular and classical plurals and verb forms", () => {
    expect(synonyms("cars")).toContain("automobile");
    expect(isKnownWord("studies")).toBe(true);
    expect(isKnownWord("running")).toBe(true);
    expect(isKnownWord("mitochondria")).toBe(true);
    expect(isKnownWord("nuclei")).toBe(true);
    expect(senseCount("cells")).toBe(senseCount("cell"));
  });

  it("returns direct hypernyms", () => {
    expect(hypernyms("car")).toContain("motor vehicle");
    expect(hypernyms("enzyme")).toContain("protein");
    expect(hypernyms("kidney")).toContain("excretory organ");
  });

  it("reads synsets by byte offset with lemmas and gloss", () => {
    const [first] = senses("kidney", { maxSenses: 1 });
    expect(first?.pos).toBe("n");
    const set = synset(first!);
    expect(set.lemmas).toContain("kidney");
    expect(set.gloss).toMatch(/excretory organs/);
  });

  it("respects maxSenses", () => {
    expect(senses("run", { maxSenses: 1 })).toHaveLength(1);
    expect(senses("run", { maxSenses: 5 })).toHaveLength(5);
    expect(synonyms("run", { maxSenses: 1 }).length).toBeLessThanOrEqual(
      synonyms("run", { maxSenses: 5 }).length,
    );
  });

  it("reports polysemy and usage as genericness signals", () => {
    expect(senseCount("take")).toBeGreaterThan(30);
    expect(senseCount("photosynthesis")).toBe(1);
    expect(usageCount("take")).toBeGreaterThan(usageCount("enzyme"));
    expect(usageCount("used")).toBeGreaterThan(100);
  });

  it("returns empty results for unknown words", () => {
    expect(isKnownWord("xyzzyqq")).toBe(false);
    expect(synonyms("xyzzyqq")).toEqual([]);
    expect(hypernyms("xyzzyqq")).toEqual([]);
    expect(senseCount("xyzzyqq")).toBe(0);
    expect(usageCount("xyzzyqq")).toBe(0);
    expect(synonyms("")).toEqual([]);
  });

  it("is deterministic and returns copies from the cache", () => {
    const a = synonyms("vehicle");
    a.push("mutated");
    expect(synonyms("vehicle")).not.toContain("mutated");
    expect(synonyms("vehicle")).toEqual(synonyms("vehicle"));
  });
});
