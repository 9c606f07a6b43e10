"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert, Progress, Skeleton } from "@/components/ui/misc";
import { AppError } from "@/lib/errors";
import type { TIngestion } from "@/schema/resources.schema";
import { ResourceMetadataSchema } from "@/schema/resources.schema";
import { deleteResource, getResources, postResources, retryResource } from "@/services/resources.services";
import type { ERole } from "@/types/curriculum.types";
import { ResourcePreview } from "./resource-preview";

const STAGES = ["queued", "extracting", "chunking", "embedding", "storing", "ready"];

/** Upload with metadata, live per-file progress (polling survives reloads), list, retry, delete. */
export function Library({ role }: { role: ERole }) {
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ["resources"],
    queryFn: getResources,
    refetchInterval: (q) =>
      q.state.data?.items.some((i) => i.status !== "ready" && i.status !== "failed") ? 1000 : false,
  });
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<TIngestion | null>(null);
  const [dragging, setDragging] = useState(false);
  const known = {
    board: [...new Set((list.data?.items ?? []).map((i) => i.board))].sort(),
    grade: [...new Set((list.data?.items ?? []).map((i) => i.grade))].sort(),
    subject: [...new Set((list.data?.items ?? []).map((i) => i.subject))].sort(),
  };
  const [filter, setFilter] = useState({ text: "", type: "", status: "", sort: "newest" });
  const rows = (list.data?.items ?? [])
    .filter((i) => {
      const t = filter.text.toLowerCase();
      return (
        (!t ||
          `${i.title} ${i.originalFilename} ${i.board} ${i.grade} ${i.subject}`.toLowerCase().includes(t)) &&
        (!filter.type || i.resourceType === filter.type) &&
        (!filter.status || i.status === filter.status)
      );
    })
    .sort((a, b) =>
      filter.sort === "title"
        ? a.title.localeCompare(b.title)
        : filter.sort === "oldest"
          ? a.createdAt.localeCompare(b.createdAt)
          : b.createdAt.localeCompare(a.createdAt),
    );
  const upload = useMutation({
    mutationFn: postResources,
    onSuccess: (res) => {
      for (const i of res.ingestions)
        if (i.duplicate) toast.info(`${i.originalFilename} was already uploaded`);
      void qc.invalidateQueries({ queryKey: ["resources"] });
    },
    onError: (e) =>
      setError(
        e instanceof AppError && e.details?.length
          ? `${e.message}: ${e.details.map((d) => `${d.path ?? ""} ${d.message}`.trim()).join("; ")}`
          : e.message,
      ),
  });
  const remove = useMutation({
    mutationFn: deleteResource,
    onSuccess: () => qc.invalidateQueries({ queryKey: ["resources"] }),
  });
  const retry = useMutation({
    mutationFn: retryResource,
    onSuccess: () => qc.invalidateQueries({ queryKey: ["resources"] }),
  });

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const form = new FormData(e.currentTarget);
    const fields = Object.fromEntries([...form.entries()].filter(([k, v]) => k !== "file" && v !== ""));
    const parsed = ResourceMetadataSchema.safeParse(fields);
    if (!parsed.success) {
      setError(parsed.error.issues.map((i) => `${String(i.path[0] ?? "")}: ${i.message}`).join("; "));
      return;
    }
    if (form.getAll("file").filter((f) => f instanceof File && f.size > 0).length === 0) {
      setError("Choose at least one file (PDF, DOCX, Markdown or text).");
      return;
    }
    upload.mutate(form);
  }

  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Upload resources</CardTitle>
        </CardHeader>
        <CardContent>
          <form className="grid gap-3 md:grid-cols-4" onSubmit={onSubmit} data-testid="upload-form">
            <fieldset
              className={`flex flex-col gap-1.5 rounded-md border-2 border-dashed p-3 md:col-span-4 ${dragging ? "border-primary bg-accent" : "border-border"}`}
              data-testid="dropzone"
              aria-label="Drop files to upload"
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={(e) => {
                e.preventDefault();
                setDragging(false);
                const input = e.currentTarget.querySelector("input[type=file]") as HTMLInputElement | null;
                if (input && e.dataTransfer.files.length) input.files = e.dataTransfer.files;
              }}
            >
              <Label htmlFor="file">Drop files here or choose them (PDF, DOCX, Markdown, text)</Label>
              <Input
                id="file"
                name="file"
                type="file"
                multiple
                accept=".pdf,.docx,.md,.markdown,.txt"
                data-testid="upload-file"
              />
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" name="splitChapters" value="true" data-testid="upload-split" /> A whole
                book: detect chapters from headings and make one resource per chapter
              </label>
            </fieldset>
            {(["board", "grade", "subject"] as const).map((f) => (
              <div key={f} className="flex flex-col gap-1.5">
                <Label htmlFor={f}>{f === "grade" ? "Class" : f[0]!.toUpperCase() + f.slice(1)}</Label>
                <Input id={f} name={f} required list={`known-${f}`} data-testid={`upload-${f}`} />
                {/* Existing values as suggestions; new ones are accepted as typed. */}
                <datalist id={`known-${f}`}>
                  {known[f].map((v) => (
                    <option key={v} value={v} />
                  ))}
                </datalist>
              </div>
            ))}
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="resourceType">Type</Label>
              <NativeSelect id="resourceType" name="resourceType" defaultValue="textbook">
                <option value="textbook">Textbook</option>
                <option value="pyq">PYQ</option>
                <option value="notes">Notes</option>
                <option value="other">Other</option>
              </NativeSelect>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="chapterNumber">Chapter no.</Label>
              <Input id="chapterNumber" name="chapterNumber" type="number" min={0} />
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="chapterName">Chapter name</Label>
              <Input id="chapterName" name="chapterName" />
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="visibility">Visibility</Label>
              <NativeSelect
                id="visibility"
                name="visibility"
                defaultValue={role === "admin" ? "shared" : "private"}
              >
                {role === "admin" && <option value="shared">Shared with all teachers</option>}
                <option value="private">Private (only me)</option>
              </NativeSelect>
            </div>
            <div className="flex items-end">
              <Button type="submit" disabled={upload.isPending} data-testid="upload-submit">
                {upload.isPending ? "Uploading…" : "Upload"}
              </Button>
            </div>
          </form>
          {error && (
            <Alert variant="destructive" className="mt-3" data-testid="upload-error">
              {error}
            </Alert>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Library</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-2">
          {list.isLoading && <Skeleton className="h-24 w-full" />}
          {list.isError && <Alert variant="destructive">{list.error.message}</Alert>}
          <div className="flex flex-wrap gap-2" data-testid="library-filters">
            <Input
              aria-label="Search by title, file, board, class or subject"
              placeholder="Search title, file, board, class, subject…"
              className="max-w-xs"
              value={filter.text}
              onChange={(e) => setFilter({ ...filter, text: e.target.value })}
              data-testid="library-search"
            />
            <NativeSelect
              aria-label="Resource type"
              className="w-auto"
              value={filter.type}
              onChange={(e) => setFilter({ ...filter, type: e.target.value })}
            >
              <option value="">All types</option>
              <option value="textbook">Textbook</option>
              <option value="pyq">PYQ</option>
              <option value="notes">Notes</option>
              <option value="other">Other</option>
            </NativeSelect>
            <NativeSelect
              aria-label="Status"
              className="w-auto"
              value={filter.status}
              onChange={(e) => setFilter({ ...filter, status: e.target.value })}
            >
              <option value="">Any status</option>
              <option value="ready">Ready</option>
              <option value="failed">Failed</option>
              <option value="embedding">In progress</option>
            </NativeSelect>
            <NativeSelect
              aria-label="Sort"
              className="w-auto"
              value={filter.sort}
              onChange={(e) => setFilter({ ...filter, sort: e.target.value })}
            >
              <option value="newest">Newest first</option>
              <option value="oldest">Oldest first</option>
              <option value="title">Title A–Z</option>
            </NativeSelect>
          </div>
          <table className="w-full text-left text-sm" data-testid="library-table">
            <thead className="text-xs text-muted-foreground">
              <tr>
                <th className="py-2">Title</th>
                <th>Scope</th>
                <th>Type</th>
                <th>Status</th>
                <th>Chunks</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((i) => {
                const stage = Math.max(0, STAGES.indexOf(i.status));
                const pct =
                  i.status === "ready"
                    ? 100
                    : i.progressTotal
                      ? Math.round((100 * (stage + i.progressDone / i.progressTotal)) / STAGES.length)
                      : Math.round((100 * stage) / STAGES.length);
                return (
                  <tr key={i.id} className="border-t border-border" data-testid="library-row">
                    <td className="py-2 pr-2">
                      <div className="font-medium">{i.title}</div>
                      <div className="text-xs text-muted-foreground">
                        {i.originalFilename} · {i.visibility}
                      </div>
                      {role === "admin" && i.instructionLike.length > 0 && (
                        <Badge variant="destructive" data-testid="row-instruction-flag">
                          instruction-like text in {i.instructionLike.length} passage
                          {i.instructionLike.length === 1 ? "" : "s"}
                        </Badge>
                      )}
                    </td>
                    <td className="pr-2 text-xs">
                      {i.board} / {i.grade} / {i.subject}
                      {i.chapterNumber !== null ? ` · ch ${i.chapterNumber}` : ""}
                    </td>
                    <td className="pr-2">
                      <Badge variant="outline">{i.resourceType}</Badge>
                    </td>
                    <td className="min-w-40 pr-2">
                      {i.status === "failed" ? (
                        <span className="text-xs text-destructive" data-testid="row-status">
                          failed: {i.error}
                        </span>
                      ) : (
                        <div className="flex flex-col gap-1">
                          <span className="text-xs" data-testid="row-status">
                            {i.status}
                            {i.status === "embedding" ? ` ${i.progressDone}/${i.progressTotal}` : ""}
                          </span>
                          {i.status !== "ready" && <Progress value={pct} />}
                        </div>
                      )}
                    </td>
                    <td className="pr-2 tabular-nums">{i.chunkCount ?? "—"}</td>
                    <td className="flex gap-1 py-2">
                      {i.status === "ready" && (
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => setPreview(i)}
                          data-testid="row-preview"
                        >
                          Preview
                        </Button>
                      )}
                      {i.status === "ready" && (
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => retry.mutate(i.id)}
                          title="Re-ingest with the current embedder"
                        >
                          Re-ingest
                        </Button>
                      )}
                      {i.status === "failed" && (
                        <Button size="sm" variant="outline" onClick={() => retry.mutate(i.id)}>
                          Retry
                        </Button>
                      )}
                      <Button
                        size="sm"
                        variant="ghost"
                        data-testid="row-delete"
                        onClick={() => {
                          if (window.confirm(`Delete “${i.title}” and its chunks?`)) remove.mutate(i.id);
                        }}
                      >
                        Delete
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {list.data?.items.length === 0 && (
            <p className="text-sm text-muted-foreground">No resources yet.</p>
          )}
        </CardContent>
      </Card>
      {preview && <ResourcePreview ingestion={preview} role={role} onClose={() => setPreview(null)} />}
    </div>
  );
}
