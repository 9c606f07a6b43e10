import { describe, expect, it } from "vitest";
import { plural } from "@/lib/text/plural";

describe("plural", () => {
  it("uses the singular for exactly one and the plural otherwise", () => {
    expect(plural(1, "question")).toBe("1 question");
    expect(plural(2, "question")).toBe("2 questions");
    expect(plural(0, "mark")).toBe("0 marks");
  });

  it("takes an irregular plural", () => {
    expect(plural(1, "child", "children")).toBe("1 child");
    expect(plural(3, "child", "children")).toBe("3 children");
  });
});
