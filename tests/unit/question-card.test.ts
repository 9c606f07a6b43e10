// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { QuestionCard } from "@/components/builder/question-card";
import type { ISlot, TQuestion, TQuestionPartData } from "@/types/generation.types";

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
  contextRefs: [{ documentId: "d", chunkIndex: 0, title: "Notes", quote: "The stroma is…" }],
  validation: { citationsOk: true, supported: true, bloomAgreed: true, regenerated: false, flags: [] },
  source: "llm",
  options: ["stroma", "stomata", "photosystem", "carbon fixation"],
  correctIndex: 0,
  explanation: "The stroma surrounds the thylakoids.",
  distractorRationales: ["a", "b", "c"],
};

function card(part: TQuestionPartData, stopped = false) {
  return render(
    createElement(QuestionCard, {
      part,
      index: 0,
      approved: false,
      onApprove: () => undefined,
      onReject: () => undefined,
      onEdit: () => undefined,
      stopped,
    }),
  );
}

const CONTROLS = ["reveal-answer", "why", "approve", "edit", "reject"];

afterEach(cleanup);

describe("QuestionCard while the model writes", () => {
  it("shows the draft's stem and complete options over rows for the rest, with every control disabled", () => {
    card({
      slot: SLOT,
      status: "draft",
      draft: {
        attempt: 1,
        writing: "options",
        promptText: "The fluid-filled space",
        options: ["stroma", "stomata"],
      },
    });
    const root = screen.getByTestId("question-card");
    expect(root.dataset.status).toBe("draft");
    expect(root.getAttribute("aria-busy")).toBe("true");
    expect(screen.getByTestId("draft-prompt").textContent).toContain("The fluid-filled space");
    expect(screen.getByTestId("draft-badge").textContent).toBe("draft");
    // Four option rows from the start: two written, two still placeholders.
    expect(within(screen.getByTestId("draft-options")).getAllByRole("listitem")).toHaveLength(4);
    expect(screen.getAllByTestId("draft-option").map((o) => o.textContent)).toEqual([
      "A. stroma",
      "B. stomata",
    ]);
    for (const id of CONTROLS) expect((screen.getByTestId(id) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows why a refused draft is being rewritten, in its place", () => {
    card({
      slot: SLOT,
      status: "generating",
      note: "The quality gate refused the draft (vague stem); rewriting it.",
    });
    expect(screen.queryByTestId("draft-prompt")).toBeNull();
    expect(screen.getByTestId("slot-note").textContent).toMatch(/refused the draft/);
    for (const id of CONTROLS) expect((screen.getByTestId(id) as HTMLButtonElement).disabled).toBe(true);
  });

  it("enables the controls only for the final question", () => {
    card({ slot: SLOT, status: "final", question: FINAL });
    expect(screen.getByTestId("question-card").dataset.status).toBe("final");
    expect(screen.getByTestId("question-prompt").textContent).toBe(FINAL.promptText);
    for (const id of CONTROLS) expect((screen.getByTestId(id) as HTMLButtonElement).disabled).toBe(false);
  });

  it("marks a draft the teacher stopped as stopped, not as a question", () => {
    card(
      { slot: SLOT, status: "draft", draft: { attempt: 1, writing: "stem", promptText: "The fluid" } },
      true,
    );
    expect(screen.getByTestId("question-card").dataset.status).toBe("stopped");
    expect(screen.getByTestId("slot-status").textContent).toContain("stopped");
    expect((screen.getByTestId("approve") as HTMLButtonElement).disabled).toBe(true);
  });
});
