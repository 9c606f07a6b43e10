"use client";

import { useState } from "react";
import { toast } from "sonner";
import { useDeleteResource, useResources, useRetryResource, useUploadResources } from "@/hooks/use-resources";
import { AppError } from "@/lib/errors";
import { ResourceMetadataSchema, type TIngestion } from "@/schema/resources.schema";

export type TLibraryFilter = { text: string; type: string; status: string; sort: string };

/** The rows the search box, type and status filters let through, in the chosen order. */
function filterRows(items: TIngestion[], filter: TLibraryFilter): TIngestion[] {
  const t = filter.text.toLowerCase();
  return items
    .filter(
      (i) =>
        (!t ||
          `${i.title} ${i.originalFilename} ${i.board} ${i.grade} ${i.subject}`.toLowerCase().includes(t)) &&
        (!filter.type || i.resourceType === filter.type) &&
        (!filter.status || i.status === filter.status),
    )
    .sort((a, b) =>
      filter.sort === "title"
        ? a.title.localeCompare(b.title)
        : filter.sort === "oldest"
          ? a.createdAt.localeCompare(b.createdAt)
          : b.createdAt.localeCompare(a.createdAt),
    );
}

/** What the upload form's fields say is wrong, or null when it can be sent. */
function uploadFormError(form: FormData): string | null {
  const fields = Object.fromEntries([...form.entries()].filter(([k, v]) => k !== "file" && v !== ""));
  const parsed = ResourceMetadataSchema.safeParse(fields);
  if (!parsed.success)
    return parsed.error.issues.map((i) => `${String(i.path[0] ?? "")}: ${i.message}`).join("; ");
  if (form.getAll("file").filter((f) => f instanceof File && f.size > 0).length === 0)
    return "Choose at least one file (PDF, DOCX, Markdown or text).";
  return null;
}

/**
 * The Library screen's state: the resource list (polled while anything is ingesting), its
 * filters, the upload with its error, row actions (retry, re-ingest, delete) and the preview.
 */
export function useLibrary() {
  const list = useResources();
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<TIngestion | null>(null);
  /** The last upload that went through: the screen points to where its passages will be used. */
  const [uploaded, setUploaded] = useState<{ ids: string[]; subject: string } | null>(null);
  const [filter, setFilter] = useState<TLibraryFilter>({ text: "", type: "", status: "", sort: "newest" });
  const items = list.data?.items ?? [];
  const remove = useDeleteResource();
  const retry = useRetryResource();
  const upload = useUploadResources({
    onSuccess: (res) => {
      for (const i of res.ingestions)
        if (i.duplicate) toast.info(`${i.originalFilename} was already uploaded`);
    },
    onError: (e) =>
      setError(
        e instanceof AppError && e.details?.length
          ? `${e.message}: ${e.details.map((d) => `${d.path ?? ""} ${d.message}`.trim()).join("; ")}`
          : e.message,
      ),
  });

  function submitUpload(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    setUploaded(null);
    const element = e.currentTarget;
    const form = new FormData(element);
    const problem = uploadFormError(form);
    if (problem) return setError(problem);
    upload.mutate(form, {
      onSuccess: (res) => {
        setUploaded({ ids: res.ingestions.map((i) => i.id), subject: String(form.get("subject") ?? "") });
        // What belongs to one file goes; board, class and subject usually stay for the next one.
        for (const name of ["file", "chapterNumber", "chapterName"]) {
          const field = element.elements.namedItem(name);
          if (field instanceof HTMLInputElement) field.value = "";
        }
      },
    });
  }

  return {
    list,
    rows: filterRows(items, filter),
    /** Boards, classes and subjects already in the library: suggestions for the upload form. */
    known: {
      board: [...new Set(items.map((i) => i.board))].sort(),
      grade: [...new Set(items.map((i) => i.grade))].sort(),
      subject: [...new Set(items.map((i) => i.subject))].sort(),
    },
    filter,
    setFilter,
    upload,
    uploadError: error,
    /** The last upload's files by where they are now (the banner follows them, not the moment of upload). */
    uploaded: uploaded && {
      subject: uploaded.subject,
      count: uploaded.ids.length,
      processing: uploaded.ids.filter((id) => {
        const row = items.find((i) => i.id === id);
        return !row || (row.status !== "ready" && row.status !== "failed");
      }).length,
      failed: uploaded.ids.filter((id) => items.find((i) => i.id === id)?.status === "failed").length,
    },
    submitUpload,
    remove,
    retry,
    /** Deletes a resource; a refusal (403, 404, 409) is shown, never swallowed. */
    removeResource: (id: string) => remove.mutate(id, { onError: (e) => toast.error(e.message) }),
    /** Retries a failed ingestion or re-ingests a ready one; a refusal is shown. */
    retryResource: (id: string) => retry.mutate(id, { onError: (e) => toast.error(e.message) }),
    preview,
    setPreview,
  };
}

export type TLibrary = ReturnType<typeof useLibrary>;
