"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, NativeSelect, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Alert, Checkbox, Skeleton, Slider } from "@/components/ui/misc";
import { useFacets, useRetrievalEnhancement, useRetrievalQuery } from "@/hooks/use-retrieval";
import { useRetrievalSession } from "@/hooks/use-retrieval-session";
import type { TEnhanceQueryResponse, TRetrievalItem, TRetrievalQueryInput } from "@/schema/retrieval.schema";
import { BLOOM_DESCRIPTIONS, BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import { type EResourceType, RESOURCE_TYPES } from "@/types/curriculum.types";
import { GenerationPanel } from "./generation-panel";
import { ResultsEmpty } from "./results-empty";
import { RetrievalPlan } from "./retrieval-plan";
import { SessionTurns } from "./session-turns";

const TEMPLATES = [
  "Generate 10 MCQs for Chapter {chapter}",
  "Short-answer questions on {topic}",
  "Case-based questions on {topic}",
  "Explain {topic}",
];

const TYPE_LABEL: Record<EResourceType, string> = {
  textbook: "Textbook",
  pyq: "PYQ",
  notes: "Notes",
  other: "Other",
};

/** First 2–3 sentences of the passage body (headings and captions left out), within `maxWords`. */
function preview(text: string, maxWords: number): string {
  const body = text
    .split("\n")
    .filter((l) => l.trim() && !/^\s*(#|Figure:|\|)/.test(l))
    .join(" ")
    .split(/\s+/)
    .slice(0, maxWords)
    .join(" ");
  const sentences = body.match(/[^.!?]+[.!?]+/g);
  return (sentences ? sentences.slice(0, 3).join(" ") : body).slice(0, 480).trim();
}

/** The Retrieve panel: filters → query (templates, enhance) → results to select → generation. */
export function QuestionsBuilder() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const facets = useFacets();
  const [board, setBoard] = useState(params.get("board") ?? "");
  const [grade, setGrade] = useState(params.get("grade") ?? "");
  const [subject, setSubject] = useState(params.get("subject") ?? "");
  const [types, setTypes] = useState<EResourceType[]>([]);
  const [chapter, setChapter] = useState<string>(params.get("chapter") ?? "");
  const [query, setQuery] = useState(params.get("q") ?? "");
  const [topK, setTopK] = useState(8);
  const [alpha, setAlpha] = useState<number | null>(null);
  const [maxTokens, setMaxTokens] = useState(400);
  const [bloom, setBloom] = useState<EBloomLevel[]>([]);
  const [enhanced, setEnhanced] = useState<TEnhanceQueryResponse | null>(null);
  const [disabledTerms, setDisabledTerms] = useState<string[]>([]);
  const [editedEnhanced, setEditedEnhanced] = useState<string | null>(null);
  const [request, setRequest] = useState<TRetrievalQueryInput | null>(null);
  const [excluded, setExcluded] = useState<Set<string>>(new Set());
  const [context, setContext] = useState<TRetrievalItem[] | null>(null);
  const enhance = useRetrievalEnhancement();
  const results = useRetrievalQuery(request);
  const session = useRetrievalSession();

  // A new answer: record it in the session and preselect only passages that are clearly relevant.
  const answer = results.data;
  const recordTurn = session.record;
  useEffect(() => {
    if (!answer || !request) return;
    recordTurn(request, answer.session.turn);
    setExcluded(new Set(answer.items.filter((i) => i.weak).map((i) => `${i.documentId}:${i.chunkIndex}`)));
  }, [answer, request, recordTurn]);

  const boards = facets.data?.boards ?? [];
  const grades = boards.find((b) => b.board === board)?.grades ?? [];
  const subjects = grades.find((g) => g.grade === grade)?.subjects ?? [];
  const subjectFacet = subjects.find((s) => s.subject === subject);
  const filtersReady = !!(board && grade && subject);
  const filters = {
    board,
    grade,
    subject,
    ...(types.length ? { resourceType: types } : {}),
    ...(chapter ? { chapterNumber: Number(chapter) } : {}),
  };

  const finalQuery = useMemo(() => {
    if (!enhanced) return query;
    if (editedEnhanced !== null) return editedEnhanced;
    let text = enhanced.enhancedQuery;
    for (const t of disabledTerms)
      text = text.replace(new RegExp(`\\s*\\b${t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i"), "");
    return text.trim();
  }, [enhanced, editedEnhanced, disabledTerms, query]);

  function syncUrl(next: Record<string, string>) {
    const sp = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(next)) v ? sp.set(k, v) : sp.delete(k);
    router.replace(`${pathname}?${sp.toString()}`, { scroll: false });
  }

  function retrieve() {
    if (!filtersReady || !finalQuery.trim()) return;
    setExcluded(new Set());
    setContext(null);
    syncUrl({ board, grade, subject, chapter, q: query });
    setRequest({
      filters,
      query: finalQuery,
      topK,
      ...(alpha !== null ? { alpha } : {}),
      ...(bloom.length ? { bloomTargets: bloom } : {}),
      // The enhancer's alternative phrasings are searched beside the query (the planner fuses them).
      ...(enhanced?.variants.length && editedEnhanced === null ? { variants: enhanced.variants } : {}),
      ...(session.turns.length ? { session: { turns: session.turns } } : {}),
    });
  }

  const items = results.data?.items ?? [];
  const selected = items.filter((i) => !excluded.has(`${i.documentId}:${i.chunkIndex}`));

  if (context) {
    return (
      <GenerationPanel
        filters={{ board, grade, subject }}
        context={context}
        topic={finalQuery}
        bloomTargets={bloom}
        onBack={() => setContext(null)}
      />
    );
  }

  return (
    <div className="flex flex-col gap-4 pb-24">
      <Card>
        <CardHeader>
          <CardTitle>Find the passages that matter</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {facets.isLoading && <Skeleton className="h-9 w-full" />}
          {facets.isError && <Alert variant="destructive">{facets.error.message}</Alert>}
          {facets.data && boards.length === 0 && (
            <Alert data-testid="no-resources">
              No resources yet. A curriculum admin can upload textbooks, past papers and notes in the Library.
            </Alert>
          )}
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="board">Board</Label>
              <NativeSelect
                id="board"
                data-testid="filter-board"
                value={board}
                onChange={(e) => {
                  session.clear();
                  setBoard(e.target.value);
                  setGrade("");
                  setSubject("");
                  setChapter("");
                }}
              >
                <option value="">Select board</option>
                {boards.map((b) => (
                  <option key={b.board}>{b.board}</option>
                ))}
              </NativeSelect>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="grade">Class</Label>
              <NativeSelect
                id="grade"
                data-testid="filter-grade"
                value={grade}
                disabled={!board}
                onChange={(e) => {
                  session.clear();
                  setGrade(e.target.value);
                  setSubject("");
                  setChapter("");
                }}
              >
                <option value="">Select class</option>
                {grades.map((g) => (
                  <option key={g.grade}>{g.grade}</option>
                ))}
              </NativeSelect>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="subject">Subject</Label>
              <NativeSelect
                id="subject"
                data-testid="filter-subject"
                value={subject}
                disabled={!grade}
                onChange={(e) => {
                  session.clear();
                  setSubject(e.target.value);
                  setChapter("");
                }}
              >
                <option value="">Select subject</option>
                {subjects.map((s) => (
                  <option key={s.subject}>{s.subject}</option>
                ))}
              </NativeSelect>
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="chapter">Chapter (optional)</Label>
              <NativeSelect
                id="chapter"
                data-testid="filter-chapter"
                value={chapter}
                disabled={!subjectFacet?.chapters.length}
                onChange={(e) => setChapter(e.target.value)}
              >
                <option value="">Whole subject</option>
                {subjectFacet?.chapters
                  .filter((c) => c.number !== null)
                  .map((c) => (
                    <option key={`${c.number}-${c.name}`} value={String(c.number)}>
                      {c.number}. {c.name}
                    </option>
                  ))}
              </NativeSelect>
            </div>
          </div>
          <fieldset className="flex flex-wrap items-center gap-4 text-sm">
            <legend className="sr-only">Resource types</legend>
            <span className="font-medium">Resource type:</span>
            <span className="text-muted-foreground">{types.length === 0 ? "All" : ""}</span>
            {RESOURCE_TYPES.filter((t) => t !== "other").map((t) => (
              <div key={t} className="flex items-center gap-1.5">
                <Checkbox
                  id={`type-${t}`}
                  checked={types.includes(t)}
                  onCheckedChange={(v) => setTypes((cur) => (v ? [...cur, t] : cur.filter((x) => x !== t)))}
                />
                <Label htmlFor={`type-${t}`} className="font-normal">
                  {TYPE_LABEL[t]}
                </Label>
              </div>
            ))}
          </fieldset>
          <div className="flex flex-col gap-1.5">
            <div className="flex items-center justify-between gap-2">
              <Label htmlFor="query">Query</Label>
              <NativeSelect
                aria-label="Query templates"
                data-testid="templates"
                className="w-auto"
                value=""
                onChange={(e) => {
                  const chapterName = subjectFacet?.chapters.find((c) => String(c.number) === chapter);
                  const filled = e.target.value
                    .replace("{chapter}", chapter || "1")
                    .replace("{topic}", chapterName?.name ?? "the chapter's main topic");
                  if (filled) setQuery(filled);
                  setEnhanced(null);
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
              value={query}
              maxLength={2000}
              onChange={(e) => {
                setQuery(e.target.value);
                setEnhanced(null);
                setEditedEnhanced(null);
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) retrieve();
              }}
            />
          </div>
          {enhanced && (
            <div
              className="flex flex-col gap-2 rounded-md border border-border bg-muted/50 p-3"
              data-testid="enhance-panel"
            >
              <div className="grid gap-2 text-sm md:grid-cols-2">
                <div>
                  <span className="font-medium">Original: </span>
                  <span data-testid="enhance-original">{query}</span>
                </div>
                <div>
                  <Label htmlFor="enhanced">Enhanced (editable)</Label>
                  <Input
                    id="enhanced"
                    data-testid="enhance-final"
                    value={finalQuery}
                    onChange={(e) => setEditedEnhanced(e.target.value)}
                  />
                </div>
              </div>
              <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="enhance-chips">
                <span className="text-muted-foreground">Added terms (click to toggle):</span>
                {enhanced.addedTerms.map((t) => {
                  const off = disabledTerms.includes(t.term);
                  return (
                    <button
                      key={t.term}
                      type="button"
                      title={t.reason}
                      aria-pressed={!off}
                      data-testid="enhance-chip"
                      onClick={() => {
                        setEditedEnhanced(null);
                        setDisabledTerms((cur) => (off ? cur.filter((x) => x !== t.term) : [...cur, t.term]));
                      }}
                      className={
                        off
                          ? "rounded-full border border-border px-2 py-0.5 line-through opacity-60"
                          : "rounded-full border border-primary/30 bg-accent px-2 py-0.5 text-primary"
                      }
                    >
                      + {t.term} <span className="opacity-60">({t.source})</span>
                    </button>
                  );
                })}
              </div>
              {enhanced.variants.length > 0 && (
                <p className="text-xs" data-testid="enhance-variants">
                  <span className="text-muted-foreground">Also searched as: </span>
                  {enhanced.variants.map((v) => `“${v}”`).join(" · ")}
                </p>
              )}
              <p className="text-xs text-muted-foreground">{enhanced.explanations.slice(0, 2).join(" ")}</p>
            </div>
          )}
          <details className="rounded-md border border-border p-3 text-sm" data-testid="advanced">
            <summary className="cursor-pointer font-medium">Advanced settings</summary>
            <div className="mt-3 grid gap-4 md:grid-cols-3">
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="topk">Top K</Label>
                <Input
                  id="topk"
                  type="number"
                  min={1}
                  max={50}
                  value={topK}
                  onChange={(e) => setTopK(Math.min(50, Math.max(1, Number(e.target.value) || 8)))}
                />
              </div>
              <div className="flex flex-col gap-1.5">
                <span className="text-sm font-medium">
                  Hybrid weight α:{" "}
                  {alpha === null
                    ? `auto (${results.data?.classification.alpha.toFixed(2) ?? "from query type"})`
                    : alpha.toFixed(2)}
                </span>
                <Slider
                  aria-label="Hybrid weight alpha"
                  min={0}
                  max={1}
                  step={0.05}
                  value={[alpha ?? 0.5]}
                  onValueChange={(v) => setAlpha(v[0] ?? 0.5)}
                />
                {alpha !== null && (
                  <button
                    type="button"
                    className="self-start text-xs text-primary underline"
                    onClick={() => setAlpha(null)}
                  >
                    Use the classifier&apos;s α
                  </button>
                )}
              </div>
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="maxtok">Max tokens per chunk (display)</Label>
                <Input
                  id="maxtok"
                  type="number"
                  min={50}
                  max={2000}
                  value={maxTokens}
                  onChange={(e) => setMaxTokens(Number(e.target.value) || 400)}
                />
              </div>
              <fieldset className="flex flex-wrap gap-3 md:col-span-3">
                <legend className="mb-1 text-sm font-medium">Bloom levels</legend>
                {BLOOM_LEVELS.map((l) => (
                  <div
                    key={l}
                    className="flex items-center gap-1.5"
                    title={`${BLOOM_DESCRIPTIONS[l].definition} Verbs: ${BLOOM_DESCRIPTIONS[l].verbs.join(", ")}`}
                  >
                    <Checkbox
                      id={`bloom-${l}`}
                      checked={bloom.includes(l)}
                      onCheckedChange={(v) =>
                        setBloom((cur) => (v ? [...cur, l] : cur.filter((x) => x !== l)))
                      }
                    />
                    <Label htmlFor={`bloom-${l}`} className="font-normal">
                      {l}
                    </Label>
                  </div>
                ))}
              </fieldset>
            </div>
          </details>
          <SessionTurns turns={session.turns} last={results.data?.session} onClear={session.clear} />
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              data-testid="enhance"
              disabled={!filtersReady || !query.trim() || enhance.isPending}
              onClick={() =>
                enhance.mutate(
                  { rawQuery: query, filters, ...(bloom.length ? { bloomTargets: bloom } : {}) },
                  {
                    onSuccess: (data) => {
                      setEnhanced(data);
                      setDisabledTerms([]);
                      setEditedEnhanced(null);
                    },
                  },
                )
              }
            >
              {enhance.isPending ? "Enhancing…" : "Enhance"}
            </Button>
            <Button data-testid="retrieve" disabled={!filtersReady || !finalQuery.trim()} onClick={retrieve}>
              Retrieve
            </Button>
            {!filtersReady && (
              <span className="self-center text-sm text-muted-foreground">
                Pick Board, Class and Subject first.
              </span>
            )}
          </div>
          {enhance.isError && <Alert variant="destructive">{enhance.error.message}</Alert>}
        </CardContent>
      </Card>

      {results.isFetching && (
        <div className="flex flex-col gap-2" data-testid="results-loading">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-24 w-full" />
          ))}
        </div>
      )}
      {results.isError && !results.isFetching && (
        <Alert variant="destructive" data-testid="results-error">
          <div className="flex items-center justify-between gap-4">
            <span>{results.error.message}</span>
            <Button size="sm" variant="outline" onClick={() => results.refetch()} data-testid="results-retry">
              Retry
            </Button>
          </div>
        </Alert>
      )}
      {results.data && !results.isFetching && (
        <section aria-label="Results" className="flex flex-col gap-3" data-testid="results">
          <div
            className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground"
            data-testid="results-meta"
          >
            <Badge variant="outline">type: {results.data.classification.type}</Badge>
            <Badge variant="outline">α {results.data.classification.alpha.toFixed(2)}</Badge>
            <Badge variant={results.data.confidence >= 50 ? "success" : "destructive"}>
              confidence {results.data.confidence}
            </Badge>
            <span>
              {results.data.debug.totalMs.toFixed(0)} ms · reranker: {results.data.debug.reranker}
            </span>
            {results.data.warnings.map((w) => (
              <span key={w} className="text-destructive">
                {w}
              </span>
            ))}
          </div>
          <RetrievalPlan plan={results.data.plan} />
          {items.length === 0 && (
            <ResultsEmpty refusal={results.data.refusal} suggestions={results.data.suggestions} />
          )}
          {items.map((it) => {
            const key = `${it.documentId}:${it.chunkIndex}`;
            const on = !excluded.has(key);
            return (
              <Card key={key} className={on ? "" : "opacity-60"} data-testid="result-item">
                <CardContent className="flex gap-3 pt-4">
                  <Checkbox
                    checked={on}
                    aria-label={`Use chunk ${it.chunkIndex} of ${it.title}`}
                    data-testid="result-select"
                    onCheckedChange={(v) =>
                      setExcluded((cur) => {
                        const n = new Set(cur);
                        if (v) n.delete(key);
                        else n.add(key);
                        return n;
                      })
                    }
                  />
                  <div className="flex min-w-0 flex-1 flex-col gap-1.5">
                    <div className="flex flex-wrap items-center gap-2 text-xs">
                      <span className="font-medium text-foreground" data-testid="result-title">
                        {it.title}
                      </span>
                      <Badge variant="outline" data-testid="result-chunk">
                        chunk {it.chunkIndex}
                      </Badge>
                      {it.pageStart !== undefined && (
                        <span className="text-muted-foreground">
                          p. {it.pageStart}
                          {it.pageEnd !== it.pageStart ? `–${it.pageEnd}` : ""}
                        </span>
                      )}
                      {it.sectionPath && (
                        <span className="truncate text-muted-foreground">
                          {it.sectionPath.split(" > ").slice(-2).join(" › ")}
                        </span>
                      )}
                      {it.weak && (
                        <Badge
                          variant="destructive"
                          title="Weak match: not preselected"
                          data-testid="result-weak"
                        >
                          weak match
                        </Badge>
                      )}
                      <span
                        className="ml-auto tabular-nums text-muted-foreground"
                        data-testid="result-score"
                        title={`Ranking scores within this search: fused ${it.fusedScore.toFixed(2)}${
                          it.rerankScore !== undefined ? `, rerank ${it.rerankScore.toFixed(2)}` : ""
                        }`}
                      >
                        relevance {it.relevance.toFixed(2)}
                      </span>
                    </div>
                    <p className="text-sm leading-relaxed">{preview(it.content, maxTokens)}</p>
                    <a
                      className="self-start text-xs text-primary underline"
                      href={`/api/sources/${it.documentId}${it.pageStart ? `#page=${it.pageStart}` : ""}`}
                      target="_blank"
                      rel="noreferrer"
                      data-testid="view-source"
                    >
                      View source
                    </a>
                  </div>
                </CardContent>
              </Card>
            );
          })}
        </section>
      )}
      {items.length > 0 && (
        <div className="fixed inset-x-0 bottom-0 z-10 border-t border-border bg-card/95 p-3 backdrop-blur">
          <div className="mx-auto flex max-w-7xl items-center justify-end gap-3">
            <span className="text-sm text-muted-foreground">
              {selected.length} of {items.length} passages selected
            </span>
            <Button
              data-testid="use-context"
              disabled={selected.length === 0}
              onClick={() => setContext(selected)}
            >
              Use selected as context ({selected.length})
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
