"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useFacets, useRetrievalEnhancement, useRetrievalQuery } from "@/hooks/use-retrieval";
import { useRetrievalSession } from "@/hooks/use-retrieval-session";
import { orderByRelevance } from "@/lib/retrieval/result-order";
import type { TEnhanceQueryResponse, TRetrievalItem, TRetrievalQueryInput } from "@/schema/retrieval.schema";
import type { EBloomLevel } from "@/types/bloom.types";
import type { EResourceType } from "@/types/curriculum.types";
import { passageKey } from "@/types/generation.types";
import { parseTopK } from "./blueprint";

/** The enhanced query with the teacher's switched-off terms removed (or their own edit). */
function composeFinalQuery(
  query: string,
  enhanced: TEnhanceQueryResponse | null,
  edited: string | null,
  disabledTerms: string[],
): string {
  if (!enhanced) return query;
  if (edited !== null) return edited;
  let text = enhanced.enhancedQuery;
  for (const t of disabledTerms)
    text = text.replace(new RegExp(`\\s*\\b${t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i"), "");
  return text.trim();
}

/** Board → class → subject → chapter, and the resource types: what the search is limited to. */
function useScope(clearSession: () => void) {
  const params = useSearchParams();
  const facets = useFacets();
  const [board, setBoardRaw] = useState(params.get("board") ?? "");
  const [grade, setGradeRaw] = useState(params.get("grade") ?? "");
  const [subject, setSubjectRaw] = useState(params.get("subject") ?? "");
  const [chapter, setChapter] = useState<string>(params.get("chapter") ?? "");
  const [types, setTypes] = useState<EResourceType[]>([]);
  const boards = facets.data?.boards ?? [];
  const grades = boards.find((b) => b.board === board)?.grades ?? [];
  const subjects = grades.find((g) => g.grade === grade)?.subjects ?? [];
  const subjectFacet = subjects.find((s) => s.subject === subject);
  // A new board, class or subject starts a new search session and clears the narrower choices.
  const setBoard = (v: string) => {
    clearSession();
    setBoardRaw(v);
    setGradeRaw("");
    setSubjectRaw("");
    setChapter("");
  };
  const setGrade = (v: string) => {
    clearSession();
    setGradeRaw(v);
    setSubjectRaw("");
    setChapter("");
  };
  const setSubject = (v: string) => {
    clearSession();
    setSubjectRaw(v);
    setChapter("");
    // Another subject may not have the types ticked for this one.
    setTypes([]);
  };
  // A list with a single choice is chosen for the teacher (one board, one class, one subject).
  const onlyBoard = boards.length === 1 ? boards[0]?.board : undefined;
  const onlyGrade = grades.length === 1 ? grades[0]?.grade : undefined;
  const onlySubject = subjects.length === 1 ? subjects[0]?.subject : undefined;
  useEffect(() => {
    if (!board && onlyBoard) setBoardRaw(onlyBoard);
  }, [board, onlyBoard]);
  useEffect(() => {
    if (board && !grade && onlyGrade) setGradeRaw(onlyGrade);
  }, [board, grade, onlyGrade]);
  useEffect(() => {
    if (grade && !subject && onlySubject) setSubjectRaw(onlySubject);
  }, [grade, subject, onlySubject]);
  const toggleType = (t: EResourceType, on: boolean) =>
    setTypes((cur) => (on ? [...cur, t] : cur.filter((x) => x !== t)));
  return {
    facets,
    boards,
    grades,
    subjects,
    chapters: subjectFacet?.chapters ?? [],
    /** Resource types the chosen subject has (no PYQ or Notes box where there are none). */
    availableTypes: subjectFacet?.resourceTypes ?? [],
    board,
    grade,
    subject,
    chapter,
    types,
    setBoard,
    setGrade,
    setSubject,
    setChapter,
    toggleType,
    ready: !!(board && grade && subject),
    filters: {
      board,
      grade,
      subject,
      ...(types.length ? { resourceType: types } : {}),
      ...(chapter ? { chapterNumber: Number(chapter) } : {}),
    },
  };
}

export type TBuilderScope = ReturnType<typeof useScope>;

/** The query text, the enhancer's suggestion, and what the teacher kept of it. */
function useQueryDraft(initial: string) {
  const [query, setQueryRaw] = useState(initial);
  const [enhanced, setEnhancedRaw] = useState<TEnhanceQueryResponse | null>(null);
  const [disabledTerms, setDisabledTerms] = useState<string[]>([]);
  const [editedEnhanced, setEditedEnhanced] = useState<string | null>(null);
  const finalQuery = useMemo(
    () => composeFinalQuery(query, enhanced, editedEnhanced, disabledTerms),
    [enhanced, editedEnhanced, disabledTerms, query],
  );
  return {
    query,
    enhanced,
    disabledTerms,
    finalQuery,
    /** Typing drops the enhancement (it was made for the old text). */
    setQuery: (text: string) => {
      setQueryRaw(text);
      setEnhancedRaw(null);
      setEditedEnhanced(null);
    },
    /** A template replaces the text (when one was picked) and drops the enhancement. */
    applyTemplate: (filled: string) => {
      if (filled) setQueryRaw(filled);
      setEnhancedRaw(null);
    },
    setEnhanced: (data: TEnhanceQueryResponse) => {
      setEnhancedRaw(data);
      setDisabledTerms([]);
      setEditedEnhanced(null);
    },
    editEnhanced: setEditedEnhanced,
    toggleTerm: (term: string) => {
      setEditedEnhanced(null);
      setDisabledTerms((cur) => (cur.includes(term) ? cur.filter((x) => x !== term) : [...cur, term]));
    },
    /** The enhancer's alternative phrasings are searched only while its text is used unedited. */
    variants: enhanced && editedEnhanced === null ? enhanced.variants : [],
  };
}

export type TBuilderQuery = ReturnType<typeof useQueryDraft>;

/** Retrieval knobs under "Advanced settings". */
function useSettings() {
  const [topK, setTopK] = useState(8);
  const [alpha, setAlpha] = useState<number | null>(null);
  const [rerank, setRerank] = useState(true);
  // What the teacher typed in Top K; the last valid value is searched with while this is wrong.
  const [topKText, setTopKText] = useState("8");
  const parsedTopK = parseTopK(topKText);
  const typeTopK = (raw: string) => {
    setTopKText(raw);
    const p = parseTopK(raw);
    if ("value" in p) setTopK(p.value);
  };
  const [maxTokens, setMaxTokens] = useState(400);
  const [bloom, setBloom] = useState<EBloomLevel[]>([]);
  const toggleBloom = (l: EBloomLevel, on: boolean) =>
    setBloom((cur) => (on ? [...cur, l] : cur.filter((x) => x !== l)));
  return {
    topK,
    topKText,
    typeTopK,
    topKError: "error" in parsedTopK ? parsedTopK.error : null,
    alpha,
    setAlpha,
    rerank,
    setRerank,
    maxTokens,
    setMaxTokens,
    bloom,
    toggleBloom,
  };
}

export type TBuilderSettings = ReturnType<typeof useSettings>;

/**
 * The Questions builder's state: scope filters, the query and its enhancement, advanced settings,
 * the retrieval answer with the passages the teacher keeps, and the passages handed on to
 * generation (`context`; while set, the screen shows the generation panel).
 */
export function useQuestionsBuilder() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const session = useRetrievalSession();
  const scope = useScope(session.clear);
  const draft = useQueryDraft(params.get("q") ?? "");
  const settings = useSettings();
  const enhance = useRetrievalEnhancement();
  const [request, setRequest] = useState<TRetrievalQueryInput | null>(null);
  const [excluded, setExcluded] = useState<Set<string>>(new Set());
  const [context, setContext] = useState<TRetrievalItem[] | null>(null);
  const results = useRetrievalQuery(request);

  // A new answer: record it in the session and preselect only passages that are clearly relevant.
  const answer = results.data;
  const recordTurn = session.record;
  useEffect(() => {
    if (!answer || !request) return;
    recordTurn(request, answer.session.turn);
    setExcluded(new Set(answer.items.filter((i) => i.weak).map(passageKey)));
  }, [answer, request, recordTurn]);

  function syncUrl(next: Record<string, string>) {
    const sp = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(next)) v ? sp.set(k, v) : sp.delete(k);
    router.replace(`${pathname}?${sp.toString()}`, { scroll: false });
  }

  // Not while a retrieval is running: a second click would only race the first.
  const canRetrieve = scope.ready && !!draft.finalQuery.trim() && !results.isFetching;
  function retrieve() {
    if (!canRetrieve) return;
    setExcluded(new Set());
    setContext(null);
    const { board, grade, subject, chapter } = scope;
    syncUrl({ board, grade, subject, chapter, q: draft.query });
    setRequest({
      filters: scope.filters,
      query: draft.finalQuery,
      topK: settings.topK,
      enableRerank: settings.rerank,
      ...(settings.alpha !== null ? { alpha: settings.alpha } : {}),
      ...(settings.bloom.length ? { bloomTargets: settings.bloom } : {}),
      // The enhancer's alternative phrasings are searched beside the query (the planner fuses them).
      ...(draft.variants.length ? { variants: draft.variants } : {}),
      ...(session.turns.length ? { session: { turns: session.turns } } : {}),
    });
  }

  function runEnhance() {
    enhance.mutate(
      {
        rawQuery: draft.query,
        filters: scope.filters,
        ...(settings.bloom.length ? { bloomTargets: settings.bloom } : {}),
      },
      { onSuccess: draft.setEnhanced },
    );
  }

  // The list the teacher sees: by the relevance shown on each card.
  const items = useMemo(() => orderByRelevance(results.data?.items ?? []), [results.data]);
  const selected = items.filter((i) => !excluded.has(passageKey(i)));
  const setPassageSelected = (key: string, on: boolean) =>
    setExcluded((cur) => {
      const n = new Set(cur);
      if (on) n.delete(key);
      else n.add(key);
      return n;
    });

  return {
    scope,
    draft,
    settings,
    session,
    enhance,
    runEnhance,
    canRetrieve,
    retrieve,
    results,
    items,
    excluded,
    selected,
    setPassageSelected,
    context,
    sendSelectedToGeneration: () => setContext(selected),
    backToResults: () => setContext(null),
  };
}
export type TQuestionsBuilder = ReturnType<typeof useQuestionsBuilder>;
