"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { unmetNotes } from "@/lib/papers/draft";
import { plural } from "@/lib/text/plural";
import { exportUrl } from "@/services/papers.services";
import type { EExportFormat } from "@/types/paper.types";
import type { TPaperBuilder } from "./use-paper-builder";

const EXPORTS: { format: EExportFormat; label: string }[] = [
  { format: "pdf", label: "PDF" },
  { format: "docx", label: "Word (DOCX)" },
  { format: "md", label: "Markdown" },
];

/** Quiz imports, each with what it carries into the LMS (docs/exports-and-api.md has the details). */
const LMS_EXPORTS: { format: EExportFormat; label: string; carries: string }[] = [
  {
    format: "moodle",
    label: "Moodle XML",
    carries:
      "Moodle: marks, feedback on every option, model answer and marking scheme for the grader. Each OR pair is a category: add one random question from it.",
  },
  {
    format: "qti",
    label: "QTI 1.2",
    carries:
      "Canvas, Blackboard and other QTI tools: marks, feedback on every option, model answer and marking scheme as feedback. OR pairs and 'attempt any' become question groups.",
  },
  {
    format: "gift",
    label: "Moodle GIFT",
    carries:
      "Moodle, plain text: no marks (every question imports at 1 mark; use Moodle XML to keep them). Option feedback and model answers are kept.",
  },
];

/** Downloads of the paper and its answer key (enabled once saved with no problems), and the PYQ summary. */
export function ExportPanel({ builder: b }: { builder: TPaperBuilder }) {
  const { id, exportReady, state, check, pyq } = b;
  const unmet = check ? unmetNotes(check) : [];
  // A paper that is saved but not ready can still go out as a draft, marked as one.
  const draftable = !exportReady && state === "saved";
  return (
    <section
      aria-labelledby="export-title"
      className="flex flex-col gap-2 rounded-lg border border-border bg-card p-4"
      data-testid="exports"
    >
      <h2 id="export-title" className="font-semibold">
        Export
      </h2>
      {!exportReady && (
        <p className="text-xs text-muted-foreground" data-testid="export-blocked">
          {state !== "saved"
            ? "Saving first…"
            : `Fix the problems above to export the final paper (${check?.problems[0]?.message ?? ""}).`}
        </p>
      )}
      {draftable && (
        <div
          className="flex flex-col gap-1 rounded-md border border-dashed border-border p-2"
          data-testid="draft-export"
        >
          <p className="text-xs font-medium">Export a draft</p>
          <p className="text-xs text-muted-foreground">
            Marked “DRAFT” at the top, with what is still unmet
            {unmet.length > 0 ? `: ${unmet.slice(0, 3).join("; ")}${unmet.length > 3 ? "; …" : ""}` : ""}.
          </p>
          <div className="flex flex-wrap gap-1">
            {EXPORTS.map((e) => (
              <ExportLink
                key={e.format}
                href={exportUrl(id, e.format, "paper", true)}
                ready
                testId={`draft-${e.format}`}
              >
                Draft {e.label}
              </ExportLink>
            ))}
            <ExportLink href={exportUrl(id, "pdf", "answer-key", true)} ready testId="draft-key-pdf">
              Draft answer key (PDF)
            </ExportLink>
          </div>
        </div>
      )}
      <p className="text-xs font-medium">Question paper</p>
      <div className="flex flex-wrap gap-1">
        {EXPORTS.map((e) => (
          <ExportLink
            key={e.format}
            href={exportUrl(id, e.format)}
            ready={exportReady}
            testId={`export-${e.format}`}
          >
            {e.label}
          </ExportLink>
        ))}
      </div>
      <p className="text-xs font-medium">Quiz for your LMS (answers included)</p>
      <ul className="flex flex-col gap-1.5" data-testid="lms-exports">
        {LMS_EXPORTS.map((e) => (
          <li key={e.format} className="flex flex-col items-start gap-0.5">
            <ExportLink href={exportUrl(id, e.format)} ready={exportReady} testId={`export-${e.format}`}>
              {e.label}
            </ExportLink>
            <span className="text-xs text-muted-foreground" data-testid={`export-${e.format}-carries`}>
              {e.carries}
            </span>
          </li>
        ))}
      </ul>
      <p className="text-xs font-medium">Answer key and marking scheme</p>
      <div className="flex flex-wrap gap-1">
        <ExportLink href={exportUrl(id, "pdf", "answer-key")} ready={exportReady} testId="export-key-pdf">
          PDF
        </ExportLink>
        <ExportLink href={exportUrl(id, "docx", "answer-key")} ready={exportReady} testId="export-key-docx">
          Word (DOCX)
        </ExportLink>
        <ExportLink href={exportUrl(id, "md", "answer-key")} ready={exportReady} testId="export-key-md">
          Markdown
        </ExportLink>
        <Link
          href={`/papers/${id}/answer-key`}
          target="_blank"
          className="inline-flex h-8 items-center rounded-md border border-border px-3 text-xs font-medium hover:bg-muted"
          data-testid="print-answer-key"
        >
          Print view
        </Link>
      </div>
      {pyq.data && (
        <p className="text-xs text-muted-foreground" data-testid="pyq-summary">
          {pyq.data.pyqChunks === 0
            ? "No past papers (PYQ) for this subject to compare with."
            : `${plural(Object.keys(pyq.data.matches).length, "question")} resemble${Object.keys(pyq.data.matches).length === 1 ? "s" : ""} your past papers.`}
        </p>
      )}
    </section>
  );
}

function ExportLink({
  href,
  ready,
  testId,
  children,
}: {
  href: string;
  ready: boolean;
  testId: string;
  children: React.ReactNode;
}) {
  if (!ready) {
    return (
      <Button size="sm" variant="outline" disabled data-testid={testId}>
        {children}
      </Button>
    );
  }
  return (
    <a
      href={href}
      download
      className="inline-flex h-8 items-center rounded-md border border-border px-3 text-xs font-medium hover:bg-muted"
      data-testid={testId}
    >
      {children}
    </a>
  );
}
