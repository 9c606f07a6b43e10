"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { getSourcePassage } from "@/services/resources.services";
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
              <ZonedText content={c.content} spans={c.zoneSpans} />
            </section>
          );
        })}
      </div>
    </div>
  );
}
