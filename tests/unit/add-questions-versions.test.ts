// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AddQuestions } from "@/components/papers/add-questions";
import { ConfirmProvider } from "@/components/ui/confirm";
import type { IQuestionSummary } from "@/types/generation.types";

const summary = (
  id: string,
  promptText: string,
  extra: Partial<IQuestionSummary> = {},
): IQuestionSummary => ({
  id,
  setId: "set",
  setTitle: "Biology: 1 question",
  subject: "Biology",
  type: "mcq",
  bloomLevel: "Remember",
  difficulty: "easy",
  marks: 1,
  promptText,
  status: "draft",
  createdAt: new Date(0).toISOString(),
  ...extra,
});

const rows: IQuestionSummary[] = [
  summary("q3", "Which organelle makes ATP? (third version)", {
    earlierVersions: [
      { id: "q2", promptText: "Second version stem", status: "draft", createdAt: new Date(0).toISOString() },
      { id: "q1", promptText: "First version stem", status: "draft", createdAt: new Date(0).toISOString() },
    ],
  }),
  summary("q9", "What does the nucleus hold?"),
];

vi.mock("@/hooks/use-papers", () => ({
  useQuestionSearch: () => ({ data: { questions: rows }, isLoading: false, isError: false }),
}));

afterEach(cleanup);

describe("Add questions from your sets: a regenerated question", () => {
  it("is one row (the latest) with its earlier versions behind a disclosure", () => {
    const onAdd = vi.fn();
    render(
      createElement(
        ConfirmProvider,
        null,
        createElement(AddQuestions, {
          subject: "Biology",
          sections: [],
          present: new Set<string>(),
          busy: false,
          onAdd,
          onClose: () => undefined,
        }),
      ),
    );
    const pool = screen.getByTestId("question-pool");
    expect(pool.querySelectorAll('input[type="checkbox"]')).toHaveLength(2);
    const versions = screen.getAllByTestId("earlier-versions");
    expect(versions).toHaveLength(1);
    expect(versions[0]!.querySelector("summary")?.textContent).toContain("2 earlier versions");
    expect(versions[0]!.textContent).toContain("First version stem");
    // Picking the row adds the latest version's id.
    fireEvent.click(pool.querySelectorAll('input[type="checkbox"]')[0]!);
    fireEvent.click(screen.getByTestId("add-picked"));
    expect(onAdd).toHaveBeenCalledWith(["q3"], undefined);
  });
});
