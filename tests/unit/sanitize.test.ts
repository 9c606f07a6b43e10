import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildOrTsQuery,
  MAX_TERM_CHARS,
  MAX_TERMS,
  textToOrTsQuery,
  toTsQueryTerms,
} from "@/lib/retrieval/sanitize";

/** A quoted-OR tsquery: 'lexeme' | 'lexeme' … with lexemes of letters, marks and digits only. */
const VALID_QUERY_RE = /^(?:'[\p{L}\p{N}][\p{L}\p{M}\p{N}]*'(?: \| '[\p{L}\p{N}][\p{L}\p{M}\p{N}]*')*)?$/u;
const ALLOWED_CHARS_RE = /^[\p{L}\p{M}\p{N}' |]*$/u;

const nasty = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.string({ unit: "grapheme", maxLength: 120 }),
  fc.string({ unit: "binary", maxLength: 120 }),
  fc.string({
    unit: fc.constantFrom(
      "&",
      "|",
      "!",
      ":",
      "*",
      "<",
      "-",
      ">",
      "(",
      ")",
      "'",
      "\\",
      '"',
      "a",
      "é",
      "\u0301",
      "क",
      "ि",
      " ",
      "1",
      "\u200b",
      "\u0000",
      "\u202e",
      "\ud800",
    ),
    maxLength: 60,
  }),
);

describe("toTsQueryTerms", () => {
  it("strips tsquery syntax and keeps words", () => {
    expect(toTsQueryTerms("osmosis & !cell:* <-> (membrane) | 'water'")).toEqual([
      "osmosis",
      "cell",
      "membrane",
      "water",
    ]);
  });
  it("drops stop words, single letters and duplicates, keeps digits", () => {
    expect(toTsQueryTerms("What is the role of the X in the cell? Cell 2")).toEqual(["role", "cell", "2"]);
  });
  it("removes zero-width and control characters and keeps unicode letters", () => {
    expect(toTsQueryTerms("pho\u200btosyn\u00adthesis na\u0000ïve\ncafé")).toEqual([
      "photosynthesis",
      "na",
      "ïve",
      "café",
    ]);
    expect(toTsQueryTerms("हृदय की संरचना")).toEqual(["हृदय", "की", "संरचना"]);
  });
  it("caps term length and count", () => {
    const long = "a".repeat(200);
    expect(toTsQueryTerms(long)[0]?.length).toBe(MAX_TERM_CHARS);
    const many = Array.from({ length: 100 }, (_, i) => `word${i}`).join(" ");
    expect(toTsQueryTerms(many)).toHaveLength(MAX_TERMS);
    expect(toTsQueryTerms(many, { maxTerms: 3 })).toEqual(["word0", "word1", "word2"]);
  });
  it("never throws and yields only letter/mark/digit runs", () => {
    fc.assert(
      fc.property(nasty, (s) => {
        for (const t of toTsQueryTerms(s)) expect(t).toMatch(/^[\p{L}\p{N}][\p{L}\p{M}\p{N}]*$/u);
      }),
      { numRuns: 500 },
    );
  });
});

describe("buildOrTsQuery", () => {
  it("quotes each term and joins with |", () => {
    expect(buildOrTsQuery(["osmosis", "cell"])).toBe("'osmosis' | 'cell'");
  });
  it("returns '' when nothing usable remains", () => {
    expect(buildOrTsQuery([])).toBe("");
    expect(buildOrTsQuery(["&|!", "'", "  "])).toBe("");
    expect(textToOrTsQuery("the of a !!!")).toBe("");
  });
  it("re-sanitises raw input", () => {
    expect(buildOrTsQuery(["o'brien", "a&b", "x:*"])).toBe("'o' | 'brien' | 'a' | 'b' | 'x'");
  });
  it("only ever produces a well-formed quoted OR query", () => {
    fc.assert(
      fc.property(fc.array(nasty, { maxLength: 6 }), (parts) => {
        const q = buildOrTsQuery(parts);
        expect(q).toMatch(ALLOWED_CHARS_RE);
        expect(q).toMatch(VALID_QUERY_RE);
        expect(q.split(" | ").length).toBeLessThanOrEqual(MAX_TERMS);
        const t = textToOrTsQuery(parts.join(" "));
        expect(t).toMatch(VALID_QUERY_RE);
      }),
      { numRuns: 500 },
    );
  });
});
