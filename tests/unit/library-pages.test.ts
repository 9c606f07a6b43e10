// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { LIBRARY_PAGE, LibraryTable } from "@/components/library/library-table";
import type { TLibrary } from "@/components/library/use-library";
import { ConfirmProvider } from "@/components/ui/confirm";
import type { TIngestion } from "@/schema/resources.schema";

const row = (n: number): TIngestion => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  title: `Chapter ${n}`,
  originalFilename: `ch${n}.md`,
  board: "OpenStax",
  grade: "11",
  subject: "Biology",
  resourceType: "textbook",
  chapterNumber: n,
  chapterName: null,
  visibility: "shared",
  mimeType: "text/markdown",
  byteSize: 100,
  status: "ready",
  progressDone: 1,
  progressTotal: 1,
  error: null,
  documentId: null,
  chunkCount: 3,
  pageCount: null,
  embeddingModel: null,
  uploadedBy: null,
  instructionLike: [],
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
});

function table(n: number) {
  const lib = { rows: Array.from({ length: n }, (_, i) => row(i + 1)) } as unknown as TLibrary;
  render(createElement(ConfirmProvider, null, createElement(LibraryTable, { lib, role: "teacher" })));
}

afterEach(cleanup);

describe("library paging", () => {
  it("shows 25 rows a page with Previous / Next past 25", () => {
    table(72);
    const rows = () => screen.getByTestId("library-table").querySelectorAll("tbody tr").length;
    expect(rows()).toBe(LIBRARY_PAGE);
    expect(screen.getByTestId("library-page").textContent).toBe("1–25 of 72");
    fireEvent.click(screen.getByTestId("library-next"));
    fireEvent.click(screen.getByTestId("library-next"));
    expect(screen.getByTestId("library-page").textContent).toBe("51–72 of 72");
    expect(rows()).toBe(22);
    expect((screen.getByTestId("library-next") as HTMLButtonElement).disabled).toBe(true);
  });

  it("has no page controls for 25 rows or fewer", () => {
    table(25);
    expect(screen.queryByTestId("library-pages")).toBeNull();
  });
});
