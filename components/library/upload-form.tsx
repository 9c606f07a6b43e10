"use client";

import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert } from "@/components/ui/misc";
import type { ERole } from "@/types/curriculum.types";
import type { TLibrary } from "./use-library";

/**
 * "Upload resources": drop or choose files, say where they belong (board, class, subject, type,
 * chapter) and who sees them. Admins share with every teacher; teachers upload private notes.
 */
export function UploadForm({ lib, role }: { lib: TLibrary; role: ERole }) {
  const [dragging, setDragging] = useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Upload resources</CardTitle>
      </CardHeader>
      <CardContent>
        <form className="grid gap-3 md:grid-cols-4" onSubmit={lib.submitUpload} data-testid="upload-form">
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
                {lib.known[f].map((v) => (
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
            <Button type="submit" disabled={lib.upload.isPending} data-testid="upload-submit">
              {lib.upload.isPending ? "Uploading…" : "Upload"}
            </Button>
          </div>
        </form>
        {lib.uploaded && (
          <Alert className="mt-3" data-testid="upload-done">
            {lib.uploaded.processing > 0
              ? `${lib.uploaded.processing === 1 ? "1 file is" : `${lib.uploaded.processing} files are`} being processed below. Once ready,`
              : lib.uploaded.failed === lib.uploaded.count
                ? "The upload could not be processed: see the row below to retry it."
                : `${lib.uploaded.count - lib.uploaded.failed === 1 ? "The file is" : "The files are"} ready:${lib.uploaded.failed ? ` (${lib.uploaded.failed} failed, see below)` : ""}`}{" "}
            {lib.uploaded.failed < lib.uploaded.count && (
              <>
                {lib.uploaded.subject || "its"} passages can be searched and turned into questions in the{" "}
                <Link href="/" className="font-medium text-primary underline" data-testid="upload-to-builder">
                  Questions builder
                </Link>
                .
              </>
            )}
          </Alert>
        )}
        {lib.uploadError && (
          <Alert variant="destructive" className="mt-3" data-testid="upload-error">
            {lib.uploadError}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
