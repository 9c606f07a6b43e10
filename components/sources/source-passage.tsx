"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { getSourcePassage } from "@/services/resources.services";
import type { TZoneSpan } from "@/types/chunk.types";
import { ZonedText, ZoneLegend } from "./zoned-text";

/** A text source opened at a cited chunk: the chunks around it, the cited one highlighted and in view. */
export function SourcePassage({ documentId, chunk }: { documentId: string; chunk: number }) {
  const q = useQuery({
    queryKey: ["source-passage", documentId, chunk],
    queryFn: () => getSourcePassage(documentId, chunk),
  });
  const cited = useRef<HTMLElement>(null);
  const loaded = !!q.data;
  useEffect(() => {
    if (loaded) cited.current?.scrollIntoView({ block: "center" });
  }, [loaded]);
  if (q.isPending) return <p className="text-sm text-muted-foreground">Loading the source…</p>;
  if (q.isError)
    return (
      <p className="text-sm text-destructive" data-testid="source-error">
        {q.error.message}
      </p>
    );
  const { title, items } = q.data;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight" data-testid="source-title">
          {title}
        </h1>
        <a
          className="text-sm text-primary underline"
          href={`/api/sources/${documentId}`}
          target="_blank"
          rel="noreferrer"
        >
          Open the original file
        </a>
      </div>
      <p className="text-xs text-muted-foreground">
        The source's text as it was split for search; the cited passage (chunk {chunk}) is highlighted.
        Neighbouring chunks may repeat a sentence where they overlap. Tints mark what is not the lesson's
        prose.
      </p>
      <ZoneLegend zones={[...new Set(items.flatMap((c) => c.zoneSpans.map((s) => s[2])))]} />
      <div className="flex flex-col gap-2 text-sm leading-relaxed">
        {items.map((c) => {
          const isCited = c.chunkIndex === chunk;
          return (
            <section
              key={c.chunkIndex}
              ref={isCited ? cited : undefined}
              data-testid={isCited ? "source-cited" : "source-chunk"}
              aria-current={isCited ? "location" : undefined}
              className={
                isCited
                  ? "whitespace-pre-wrap rounded-md border-2 border-primary bg-accent p-3"
                  : "whitespace-pre-wrap rounded-md p-3 text-muted-foreground"
              }
            >
              {c.sectionPath && <p className="mb-1 text-xs font-medium">{c.sectionPath}</p>}
              <ChunkText text={c.content} spans={c.zoneSpans} />
            </section>
          );
        })}
      </div>
    </div>
  );
}

/**
 * A chunk's Markdown as a teacher reads it: "## 5.1 Components" lines as bold headings (without
 * the "#"s), the rest as written. Not real <h2>s: a chunk's headings sit under the page's title
 * in no reliable order, and each chunk is its own section already.
 */
function ChunkText({ text, spans }: { text: string; spans: readonly TZoneSpan[] }) {
  const blocks: { heading: boolean; text: string; start: number }[] = [];
  let at = 0;
  for (const line of text.split("\n")) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    const last = blocks[blocks.length - 1];
    if (h) blocks.push({ heading: true, text: h[1] ?? "", start: at });
    else if (last && !last.heading) last.text += `\n${line}`;
    else blocks.push({ heading: false, text: line, start: at });
    at += line.length + 1;
  }
  return (
    <>
      {blocks.map((b, i) =>
        b.heading ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the blocks of one chunk, in order
          <p key={i} className="mt-1 font-semibold text-foreground" data-testid="source-heading">
            {b.text}
          </p>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <span key={i}>
            <BlockText text={b.text} start={b.start} spans={spans} />
          </span>
        ),
      )}
    </>
  );
}

/** A block without its blank first and last lines, tinted by the chunk's zone runs. */
function BlockText({ text, start, spans }: { text: string; start: number; spans: readonly TZoneSpan[] }) {
  const lead = /^\n*/.exec(text)?.[0].length ?? 0;
  const trimmed = text.slice(lead).replace(/\n+$/, "");
  const from = start + lead;
  return <ZonedText content={trimmed} spans={spansWithin(spans, from, from + trimmed.length)} />;
}

/** The zone runs of one block of a chunk, as offsets into that block. */
function spansWithin(spans: readonly TZoneSpan[], start: number, end: number): TZoneSpan[] {
  return spans
    .filter(([s, e]) => e > start && s < end)
    .map(([s, e, z]): TZoneSpan => [Math.max(s, start) - start, Math.min(e, end) - start, z]);
}
