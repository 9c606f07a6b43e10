// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { ExportPanel } from "@/components/papers/export-panel";
import type { TPaperBuilder } from "@/components/papers/use-paper-builder";

afterEach(cleanup);

/** The panel reads only these fields of the builder (a whole builder needs React Query and a paper). */
const builder = (exportReady: boolean) =>
  ({
    id: "6f1c2e4a-1b2c-4d3e-8f40-123456789abc",
    exportReady,
    state: "saved",
    check: { problems: [], chapters: [], bloom: [], bloomBands: [], types: [], difficulty: [] },
    pyq: { data: undefined },
  }) as unknown as TPaperBuilder;

describe("the export panel", () => {
  it("offers the three quiz formats, each saying what it carries into the LMS", () => {
    render(createElement(ExportPanel, { builder: builder(true) }));
    const moodle = screen.getByTestId("export-moodle");
    expect(moodle.getAttribute("href")).toBe(
      "/api/papers/6f1c2e4a-1b2c-4d3e-8f40-123456789abc/export?format=moodle&part=paper",
    );
    expect(screen.getByTestId("export-moodle-carries").textContent).toMatch(
      /marks.*feedback.*marking scheme/,
    );
    expect(screen.getByTestId("export-qti-carries").textContent).toMatch(/OR pairs/);
    expect(screen.getByTestId("export-gift-carries").textContent).toMatch(/no marks/);
  });

  it("disables every download until the paper can be exported", () => {
    render(createElement(ExportPanel, { builder: builder(false) }));
    for (const format of ["pdf", "docx", "md", "moodle", "qti", "gift"])
      expect((screen.getByTestId(`export-${format}`) as HTMLButtonElement).disabled).toBe(true);
  });
});
