import { describe, expect, it } from "vitest";
import { type ISessionTurn, isAboutExcluded, resolveFollowUp } from "@/lib/retrieval/follow-up";
import { terms } from "@/lib/text/tokenize";

const PHOTOSYNTHESIS: ISessionTurn = {
  query: "photosynthesis",
  resolvedQuery: "photosynthesis",
  topic: "photosynthesis",
  bloomTargets: ["Understand"],
  anchor: {
    documentId: "00000000-0000-4000-8000-000000000008",
    chapterNumber: 8,
    sectionPath: "Chapter 8: Photosynthesis > 8.2 The Light-Dependent Reactions of Photosynthesis",
  },
};

describe("resolveFollowUp", () => {
  it("leaves a query alone without earlier turns, or when it stands on its own", () => {
    expect(resolveFollowUp("harder ones", [])).toMatchObject({ isFollowUp: false, query: "harder ones" });
    expect(resolveFollowUp("Explain the structure of DNA", [PHOTOSYNTHESIS])).toMatchObject({
      isFollowUp: false,
      excluded: [],
    });
  });

  it("'harder ones' / 'easier' repeat the previous search one Bloom level up or down", () => {
    const harder = resolveFollowUp("harder ones", [PHOTOSYNTHESIS]);
    expect(harder).toMatchObject({ isFollowUp: true, query: "photosynthesis", bloomTargets: ["Apply"] });
    expect(resolveFollowUp("make them easier", [PHOTOSYNTHESIS]).bloomTargets).toEqual(["Remember"]);
    expect(resolveFollowUp("harder", [PHOTOSYNTHESIS], ["Evaluate", "Create"]).bloomTargets).toEqual([
      "Create",
    ]);
  });

  it("'more on X' searches X within the previous topic, with the previous query as context", () => {
    const r = resolveFollowUp("more on the light reactions", [PHOTOSYNTHESIS]);
    expect(r).toMatchObject({
      isFollowUp: true,
      query: "light reactions photosynthesis",
      context: "photosynthesis",
    });
    expect(resolveFollowUp("what about the Calvin cycle?", [PHOTOSYNTHESIS]).query).toBe(
      "Calvin cycle photosynthesis",
    );
  });

  it("'not X' keeps the previous topic and excludes X, and the exclusion carries forward", () => {
    const r = resolveFollowUp("not the calvin cycle", [PHOTOSYNTHESIS]);
    expect(r).toMatchObject({ isFollowUp: true, query: "photosynthesis", excluded: ["calvin cycle"] });
    const next = resolveFollowUp("more on pigments", [{ ...PHOTOSYNTHESIS, excluded: r.excluded }]);
    expect(next.excluded).toEqual(["calvin cycle"]);
    expect(resolveFollowUp("chloroplasts but not the stroma", [PHOTOSYNTHESIS]).query).toBe(
      "chloroplasts photosynthesis",
    );
  });

  it("'the next section' navigates from the previous turn's best passage", () => {
    expect(resolveFollowUp("the next section", [PHOTOSYNTHESIS])).toMatchObject({
      navigation: "next-section",
      anchor: PHOTOSYNTHESIS.anchor,
    });
    expect(resolveFollowUp("previous chapter", [PHOTOSYNTHESIS]).navigation).toBe("previous-chapter");
    // Without an anchor there is nowhere to navigate from: read as typed.
    expect(
      resolveFollowUp("the next section", [{ ...PHOTOSYNTHESIS, anchor: undefined }]).navigation,
    ).toBeUndefined();
  });

  it("'the second one', 'the last two', 'not the first' refer to the previous turn's results", () => {
    const doc = "00000000-0000-4000-8000-000000000008";
    const section = (s: string) => `Chapter 8: Photosynthesis > ${s}`;
    const withResults: ISessionTurn = {
      ...PHOTOSYNTHESIS,
      results: [
        {
          documentId: doc,
          chunkIndex: 4,
          chapterNumber: 8,
          sectionPath: section("8.2 The Light-Dependent Reactions of Photosynthesis"),
        },
        {
          documentId: doc,
          chunkIndex: 9,
          chapterNumber: 8,
          sectionPath: section("8.3 Using Light Energy to Make Organic Molecules"),
        },
        {
          documentId: doc,
          chunkIndex: 1,
          chapterNumber: 8,
          sectionPath: section("8.1 Overview of Photosynthesis"),
        },
        {
          documentId: doc,
          chunkIndex: 2,
          chapterNumber: 8,
          sectionPath: section("8.1 Overview of Photosynthesis"),
        },
      ],
    };
    const second = resolveFollowUp("more on the second one", [withResults]);
    expect(second).toMatchObject({
      isFollowUp: true,
      query: "Using Light Energy to Make Organic Molecules photosynthesis",
      context: "photosynthesis",
      anchor: { chapterNumber: 8, sectionPath: section("8.3 Using Light Energy to Make Organic Molecules") },
    });
    expect(second.reasons[0]).toMatch(/2nd result/);
    // The last two share a section: it is named once.
    expect(resolveFollowUp("the last two", [withResults]).query).toBe(
      "Overview of Photosynthesis photosynthesis",
    );
    const not = resolveFollowUp("not the first", [withResults]);
    expect(not).toMatchObject({
      query: "photosynthesis",
      excluded: ["The Light-Dependent Reactions of Photosynthesis"],
    });
    // Without the previous list (an older client) "the second one" is not a place: read as before.
    expect(resolveFollowUp("more on the second one", [PHOTOSYNTHESIS]).query).toBe(
      "second one photosynthesis",
    );
    // A topic that starts like an ordinal is still a topic.
    expect(resolveFollowUp("more on the first law", [withResults]).query).toBe("first law photosynthesis");
  });

  it("a pronoun stands for the previous topic", () => {
    expect(resolveFollowUp("examples of this", [PHOTOSYNTHESIS]).query).toBe("examples of photosynthesis");
  });
});

describe("isAboutExcluded", () => {
  const calvin = ["calvin cycle"];
  it("is true when the heading names the topic or the text dwells on it", () => {
    expect(
      isAboutExcluded(
        { content: "Carbon fixation…", sectionPath: "Chapter 8 > 8.3 Using Light > The Calvin Cycle" },
        calvin,
        terms,
      ),
    ).toBe(true);
    expect(
      isAboutExcluded(
        {
          content: "The Calvin cycle fixes carbon. Each turn of the Calvin cycle uses ATP.",
          sectionPath: "Chapter 8 > 8.1",
        },
        calvin,
        terms,
      ),
    ).toBe(true);
  });
  it("is false for a passing mention", () => {
    expect(
      isAboutExcluded(
        {
          content: "Light reactions feed the Calvin cycle with ATP and NADPH.",
          sectionPath: "Chapter 8 > 8.2 Light",
        },
        calvin,
        terms,
      ),
    ).toBe(false);
  });
});
