// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { QuestionCard } from "@/components/builder/question-card";
import type { TPatchQuestion } from "@/schema/generation.schema";
import type { ISlot, TQuestion } from "@/types/generation.types";

const SLOT: ISlot = {
  id: "slot-1",
  index: 0,
  type: "mcq",
  bloomLevel: "Remember",
  marks: 1,
  difficulty: "easy",
  sourceKeys: ["d:0"],
};
const FINAL: TQuestion = {
  id: "slot-1",
  type: "mcq",
  bloomLevel: "Remember",
  promptText: "The fluid-filled space of the chloroplast is called ________.",
  marks: 1,
  difficulty: "easy",
  contextRefs: [],
  validation: { citationsOk: true, supported: true, bloomAgreed: true, regenerated: false, flags: [] },
  source: "offline",
  options: ["stroma", "stomata", "photosystem", "carbon fixation"],
  correctIndex: 0,
  explanation: "The stroma surrounds the thylakoids.",
  distractorRationales: ["a", "b", "c"],
};

function card(question: TQuestion, edits: TPatchQuestion[] = []) {
  render(
    createElement(QuestionCard, {
      part: { slot: SLOT, status: "final", question },
      index: 0,
      approved: false,
      onApprove: () => undefined,
      onEdit: (p: TPatchQuestion) => edits.push(p),
    }),
  );
  return edits;
}

afterEach(cleanup);

describe("editing a question on its card", () => {
  it("edits an option and the key, and saves only what changed", () => {
    const edits = card(FINAL);
    fireEvent.click(screen.getByTestId("edit"));
    fireEvent.change(screen.getByLabelText("Option B"), { target: { value: "thylakoid" } });
    fireEvent.click(screen.getByLabelText("Option A is the right answer"));
    fireEvent.change(screen.getByLabelText("Bloom level"), { target: { value: "Understand" } });
    fireEvent.click(screen.getByTestId("save-edit"));
    expect(edits).toEqual([
      { bloomLevel: "Understand", options: ["stroma", "thylakoid", "photosystem", "carbon fixation"] },
    ]);
  });

  it("will not save two identical options, and says why", () => {
    const edits = card(FINAL);
    fireEvent.click(screen.getByTestId("edit"));
    fireEvent.change(screen.getByLabelText("Option B"), { target: { value: "Stroma" } });
    expect(screen.getByTestId("edit-issues").textContent).toMatch(/Options A and B are the same/);
    expect((screen.getByTestId("save-edit") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(screen.getByLabelText("Option B"), { key: "Escape" });
    expect(screen.queryByTestId("question-editor")).toBeNull();
    expect(edits).toEqual([]);
  });

  it("warns to check the key after a question change until the teacher confirms", () => {
    const edits = card({ ...FINAL, edited: true, checkAnswer: true });
    expect(screen.getByTestId("edited-badge")).toBeTruthy();
    expect(screen.getByTestId("check-answer").textContent).toMatch(
      /You changed the question — check the answer key/,
    );
    fireEvent.click(screen.getByTestId("confirm-answer"));
    expect(edits).toEqual([{ checkAnswer: false }]);
  });

  it("puts quality-gate flag names in teacher words, the original under Details", () => {
    render(
      createElement(QuestionCard, {
        part: {
          slot: SLOT,
          status: "failed",
          reason:
            "No acceptable MCQ: every draft was refused by the quality gate (duplicate fact ×2, generic rationale ×1).",
        },
        index: 0,
        approved: false,
        onApprove: () => undefined,
      }),
    );
    const failed = screen.getByTestId("question-failed");
    expect(failed.textContent).toMatch(/two drafts tested the same fact as another question/);
    expect(screen.getByTestId("note-details").textContent).toMatch(/duplicate fact ×2/);
  });
});
