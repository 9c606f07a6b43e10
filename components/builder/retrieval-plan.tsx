"use client";

import { Badge } from "@/components/ui/badge";
import type { TRetrievalQueryResponse } from "@/schema/retrieval.schema";
import type { EPlanStrategy, EProbeSource } from "@/types/retrieval.types";

/** What each probe is, in a teacher's words. */
const PROBE_LABEL: Record<EProbeSource, string> = {
  query: "your query",
  "sub-query": "one part of your question",
  option: "an answer option",
  "key-phrase": "the question's most specific words",
  "client-variant": "a phrasing from Enhance",
  session: "your previous search",
  "llm-variant": "a phrasing from the language model",
  "llm-hyde": "a sample answer from the language model",
  hyde: "a sample answer built from the best passages",
  synonyms: "synonyms",
  feedback: "words from similar passages",
  headings: "section titles",
};

const STRATEGY_LABEL: Record<EPlanStrategy, string> = {
  single: "one search",
  "multi-query": "several phrasings",
  decompose: "split into parts",
  hyde: "query + sample answer",
};

/** "How this was searched": the query plan of a result list (probes, chapter focus, fallbacks). */
export function RetrievalPlan({ plan }: { plan: TRetrievalQueryResponse["plan"] }) {
  const used = plan.probes.filter((p) => p.status === "used");
  return (
    <details className="rounded-md border border-border p-2 text-xs" data-testid="retrieval-plan">
      <summary className="cursor-pointer">
        <span className="font-medium">How this was searched:</span> {STRATEGY_LABEL[plan.strategy]}
        {used.length > 1 ? ` (${used.length} searches combined)` : ""}
        {plan.focus?.kind === "chapter" && plan.focus.chapterNumber !== null
          ? `, focused on chapter ${plan.focus.chapterNumber}`
          : ""}
      </summary>
      <ul className="mt-2 flex flex-col gap-1" data-testid="plan-probes">
        {plan.probes.map((p, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the probes of one response, in the order they ran.
            key={`${p.source}-${i}`}
            className="flex flex-wrap items-baseline gap-2"
            data-testid="plan-probe"
          >
            <Badge variant={p.status === "used" ? "outline" : "destructive"}>{PROBE_LABEL[p.source]}</Badge>
            {p.text && <span className="min-w-0 flex-1 truncate text-muted-foreground">{p.text}</span>}
            {p.status !== "used" && (
              <span className="text-muted-foreground">
                {p.status}: {p.note}
              </span>
            )}
          </li>
        ))}
      </ul>
      {plan.reasons.length > 0 && <p className="mt-2 text-muted-foreground">{plan.reasons.join(" · ")}</p>}
      {plan.fallbacks.length > 0 && (
        <p className="mt-1 text-muted-foreground" data-testid="plan-fallbacks">
          {plan.fallbacks.join(" · ")}
        </p>
      )}
    </details>
  );
}
