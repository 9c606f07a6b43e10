import { describe, expect, it } from "vitest";
import {
  chapterRanges,
  groupResources,
  normaliseSubset,
  subsetSummary,
  toggleResources,
} from "@/components/builder/resource-subset";
import type { TFacetResource } from "@/schema/retrieval.schema";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const book = (n: number): TFacetResource => ({
  id: id(n),
  title: `Biology 2e — Ch ${n} Chapter ${n}`,
  resourceType: "textbook",
  chapterNumber: n,
  chapterName: `Chapter ${n}`,
  group: "Biology 2e",
});
const RESOURCES: TFacetResource[] = [
  book(4),
  book(5),
  book(6),
  book(7),
  {
    id: id(100),
    title: "2025 paper",
    resourceType: "pyq",
    chapterNumber: null,
    chapterName: null,
    group: "2025 paper",
  },
];

describe("chapterRanges", () => {
  it("joins consecutive chapters into runs", () => {
    expect(chapterRanges([7, 5, 6, 9])).toBe("5–7, 9");
    expect(chapterRanges([3])).toBe("3");
    expect(chapterRanges([2, 2, 3])).toBe("2–3");
    expect(chapterRanges([])).toBe("");
  });
});

describe("subsetSummary", () => {
  it("says all, none, or how many with their chapters", () => {
    expect(subsetSummary(RESOURCES, null)).toBe("All 5 resources");
    expect(subsetSummary(RESOURCES, [])).toBe("No resources chosen");
    expect(subsetSummary(RESOURCES, [id(5), id(6), id(7), id(100)])).toBe("4 of 5 resources · chapters 5–7");
    expect(subsetSummary(RESOURCES, [id(5), id(100)])).toBe("2 of 5 resources · chapter 5");
    expect(subsetSummary(RESOURCES, [id(100)])).toBe("1 of 5 resources");
    expect(subsetSummary(RESOURCES.slice(0, 1), null)).toBe("The 1 resource");
  });
});

describe("normaliseSubset and toggleResources", () => {
  it("treats every resource as all, and drops ids the subject does not have", () => {
    expect(
      normaliseSubset(
        RESOURCES,
        RESOURCES.map((r) => r.id),
      ),
    ).toBeNull();
    expect(normaliseSubset(RESOURCES, [id(4), id(999), id(4)])).toEqual([id(4)]);
    expect(normaliseSubset(RESOURCES, null)).toBeNull();
    // A link naming only resources that are gone is all of them; unticking everything stays empty.
    expect(normaliseSubset(RESOURCES, [id(999)])).toBeNull();
    expect(normaliseSubset(RESOURCES, [])).toEqual([]);
  });

  it("unticking from all leaves the rest; ticking the last one back is all again", () => {
    const without4 = toggleResources(RESOURCES, null, [id(4)], false);
    expect(without4).toEqual([id(5), id(6), id(7), id(100)]);
    expect(toggleResources(RESOURCES, without4, [id(4)], true)).toBeNull();
    // A whole book off at once, then none at all.
    const paperOnly = toggleResources(RESOURCES, null, [id(4), id(5), id(6), id(7)], false);
    expect(paperOnly).toEqual([id(100)]);
    expect(toggleResources(RESOURCES, paperOnly, [id(100)], false)).toEqual([]);
  });
});

describe("groupResources", () => {
  it("puts a book's chapters under the book and a paper on its own", () => {
    const groups = groupResources(RESOURCES);
    expect(groups.map((g) => [g.group, g.resourceType, g.resources.length])).toEqual([
      ["Biology 2e", "textbook", 4],
      ["2025 paper", "pyq", 1],
    ]);
  });
});
