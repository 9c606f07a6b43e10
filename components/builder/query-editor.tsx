"use client";

import { NativeSelect, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { addedWordSpans } from "./enhance-diff";
import type { TBuilderQuery, TBuilderScope } from "./use-questions-builder";

const TEMPLATES = [
  "Generate 10 MCQs for Chapter {chapter}",
  "Short-answer questions on {topic}",
  "Case-based questions on {topic}",
  "Explain {topic}",
];

/** Where an added term came from, in a teacher's words (not "feedback" or "WordNet"). */
const TERM_SOURCE_LABEL: Record<string, string> = {
  synonym: "synonym",
  metadata: "from the chapter",
  feedback: "key term in your curriculum",
  bloom: "for the Bloom level",
  llm: "suggested by the model",
};

/** The query box with its templates; Ctrl/⌘+Enter retrieves. */
export function QueryEditor({
  draft,
  scope,
  onSubmit,
}: {
  draft: TBuilderQuery;
  scope: TBuilderScope;
  onSubmit: () => void;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor="query">Query</Label>
        <NativeSelect
          aria-label="Query templates"
          data-testid="templates"
          // Options are whole sentences: the closed box stays narrow on a phone.
          className="w-auto max-w-[11rem] truncate sm:max-w-xs"
          value=""
          onChange={(e) => {
            const chapterName = scope.chapters.find((c) => String(c.number) === scope.chapter);
            draft.applyTemplate(
              e.target.value
                // With no chapter chosen there is no "Chapter 1" to name (Biology has none).
                .replace(
                  "Chapter {chapter}",
                  scope.chapter ? `Chapter ${scope.chapter}` : scope.subject || "this subject",
                )
                .replace("{topic}", chapterName?.name ?? "the chapter's main topic"),
            );
          }}
        >
          <option value="">Templates…</option>
          {TEMPLATES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Textarea
        id="query"
        data-testid="query-input"
        placeholder="Ask about the chapter or specify the paper pattern…"
        value={draft.query}
        maxLength={2000}
        onChange={(e) => draft.setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) onSubmit();
        }}
      />
    </div>
  );
}

/** The enhancer's suggestion: original vs. enhanced text (editable), added terms to toggle, variants. */
export function EnhancePanel({ draft }: { draft: TBuilderQuery }) {
  const { enhanced } = draft;
  if (!enhanced) return null;
  return (
    <div
      className="flex flex-col gap-2 rounded-md border border-border bg-muted/50 p-3"
      data-testid="enhance-panel"
    >
      <div className="grid gap-2 text-sm md:grid-cols-2">
        <div>
          <span className="font-medium">Original: </span>
          <span data-testid="enhance-original">{draft.query}</span>
        </div>
        <div className="flex flex-col gap-1">
          <span className="font-medium">Enhanced (added words highlighted): </span>
          <p data-testid="enhance-diff" className="whitespace-pre-wrap break-words">
            {addedWordSpans(draft.query, draft.finalQuery).map((s, i) =>
              s.added ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: spans are positional and rebuilt on every change
                <mark key={i} data-testid="enhance-added" className="rounded bg-accent px-0.5 text-primary">
                  {s.text}
                </mark>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: as above
                <span key={i}>{s.text}</span>
              ),
            )}
          </p>
          <Label htmlFor="enhanced">Edit the enhanced query</Label>
          {/* A textarea: long enhanced queries wrap instead of scrolling out of a one-line box. */}
          <Textarea
            id="enhanced"
            data-testid="enhance-final"
            rows={3}
            maxLength={2000}
            value={draft.finalQuery}
            onChange={(e) => draft.editEnhanced(e.target.value)}
          />
        </div>
      </div>
      {enhanced.addedTerms.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="enhance-chips">
          <span className="text-muted-foreground">Added terms (click to toggle):</span>
          {enhanced.addedTerms.map((t) => {
            const off = draft.disabledTerms.includes(t.term);
            return (
              <button
                key={t.term}
                type="button"
                title={t.reason}
                aria-pressed={!off}
                data-testid="enhance-chip"
                onClick={() => draft.toggleTerm(t.term)}
                className={
                  off
                    ? "rounded-full border border-border px-2 py-0.5 line-through opacity-60"
                    : "rounded-full border border-primary/30 bg-accent px-2 py-0.5 text-primary"
                }
              >
                + {t.term} <span className="opacity-60">({TERM_SOURCE_LABEL[t.source]})</span>
              </button>
            );
          })}
        </div>
      )}
      {enhanced.variants.length > 0 && (
        <p className="text-xs" data-testid="enhance-variants">
          <span className="text-muted-foreground">Also searched as: </span>
          {enhanced.variants.map((v) => `“${v}”`).join(" · ")}
        </p>
      )}
      <p className="text-xs text-muted-foreground">{enhanced.explanations.slice(0, 2).join(" ")}</p>
    </div>
  );
}
