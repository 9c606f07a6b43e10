import { describe, expect, it } from "vitest";
import { uniqueTitle } from "@/components/builder/add-to-paper";

describe("auto-named papers", () => {
  it("numbers a second paper of the same name", () => {
    expect(uniqueTitle("Biology test", [])).toBe("Biology test");
    expect(uniqueTitle("Biology test", ["Physics test", "biology test"])).toBe("Biology test 2");
    expect(uniqueTitle("Biology test", ["Biology test", "Biology test 2", "Biology test 4"])).toBe(
      "Biology test 3",
    );
  });
});
