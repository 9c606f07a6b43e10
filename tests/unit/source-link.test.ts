import { describe, expect, it } from "vitest";
import { sourceHref } from "@/components/builder/source-link";

describe("View source link", () => {
  const documentId = "6f1c2b9e-0000-4000-8000-000000000001";
  it("opens a PDF passage at its page in the original file", () => {
    expect(sourceHref({ documentId, chunkIndex: 7, pageStart: 12 })).toBe(
      `/api/sources/${documentId}#page=12`,
    );
  });
  it("opens a text passage (no page) in the source view at the cited chunk", () => {
    expect(sourceHref({ documentId, chunkIndex: 7, pageStart: null })).toBe(`/sources/${documentId}?chunk=7`);
    expect(sourceHref({ documentId, chunkIndex: 0 })).toBe(`/sources/${documentId}?chunk=0`);
  });
});
