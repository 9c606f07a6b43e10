import { describe, expect, it } from "vitest";
import { escapeRegExp } from "@/lib/text/regex";

describe("escapeRegExp", () => {
  it("matches symbols, units and names literally", () => {
    for (const literal of ["Δt", "v_(avg)", "N⋅m", "C++", "a.b*c?", "[x]", "$5 ^ 2 | y", "\\"])
      expect(new RegExp(`^${escapeRegExp(literal)}$`, "u").test(literal)).toBe(true);
    // "a.c" escaped no longer matches "abc".
    expect(new RegExp(escapeRegExp("a.c")).test("abc")).toBe(false);
  });
});
