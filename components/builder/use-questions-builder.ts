"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { recentSetsKey } from "@/hooks/use-question-sets";
import { useFacets, useRetrievalEnhancement, useRetrievalQuery } from "@/hooks/use-retrieval";
import { useRetrievalSession } from "@/hooks/use-retrieval-session";
import { orderByRelevance } from "@/lib/retrieval/result-order";
import { escapeRegExp } from "@/lib/text/regex";
import type { TQuestionSet } from "@/schema/generation.schema";
import type { TEnhanceQueryResponse, TRetrievalItem, TRetrievalQueryInput } from "@/schema/retrieval.schema";
import { getQuestionSet } from "@/services/generation.services";
import { BLOOM_LEVELS, type EBloomLevel } from "@/types/bloom.types";
import type { EResourceType } from "@/types/curriculum.types";
import { passageKey } from "@/types/generation.types";
import { parseTopK } from "./blueprint";
import { normaliseSubset, toggleResources } from "./resource-subset";

/** A passage handed on to generation: which chunk of which document. */
export type TContextRef = Pick<TRetrievalItem, "documentId" | "chunkIndex">;

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
  for (const t of disabledTerms) text = text.replace(new RegExp(`\\s*\\b${escapeRegExp(t)}\\b`, "i"), "");
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
  // The resource subset: chosen document ids, or null for every resource of the subject.
  const [subsetRaw, setSubset] = useState<string[] | null>(() => {
    const res = params.get("res");
    return res ? res.split(",").filter(Boolean) : null;
  });
  const boards = facets.data?.boards ?? [];
  const grades = boards.find((b) => b.board === board)?.grades ?? [];
  const subjects = grades.find((g) => g.grade === grade)?.subjects ?? [];
  const subjectFacet = subjects.find((s) => s.subject === subject);
  const resources = subjectFacet?.resources ?? [];
  // Until the facets arrive, the URL's choice is kept as it is (so it survives the first render).
  const subset = subjectFacet ? normaliseSubset(resources, subsetRaw) : subsetRaw;
  // A new board, class or subject starts a new search session and clears the narrower choices.
  const setBoard = (v: string) => {
    clearSession();
    setBoardRaw(v);
    setGradeRaw("");
    setSubjectRaw("");
    setChapter("");
    setSubset(null);
  };
  const setGrade = (v: string) => {
    clearSession();
    setGradeRaw(v);
    setSubjectRaw("");
    setChapter("");
    setSubset(null);
  };
  const setSubject = (v: string) => {
    clearSession();
    setSubjectRaw(v);
    setChapter("");
    setSubset(null);
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
  /** A saved set's scope, put back as it was (no new session: the set's own search is re-run). */
  const restore = (f: {
    board: string;
    grade: string;
    subject: string;
    chapterNumber?: number;
    documentIds?: string[];
  }) => {
    clearSession();
    setBoardRaw(f.board);
    setGradeRaw(f.grade);
    setSubjectRaw(f.subject);
    setChapter(f.chapterNumber !== undefined ? String(f.chapterNumber) : "");
    setSubset(f.documentIds?.length ? f.documentIds : null);
    setTypes([]);
  };
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
    restore,
    /** The subject's resources, for the Resource subset picker. */
    resources,
    /** The chosen resources (document ids), or null for all of them. */
    subset,
    toggleResources: (ids: readonly string[], on: boolean) =>
      setSubset(toggleResources(resources, subset, ids, on)),
    chooseAllResources: () => setSubset(null),
    /** The URL form of the subset ("" = all). */
    subsetParam: subset === null ? "" : subset.join(","),
    ready: !!(board && grade && subject) && (subset === null || subset.length > 0),
    filters: {
      board,
      grade,
      subject,
      ...(types.length ? { resourceType: types } : {}),
      ...(chapter ? { chapterNumber: Number(chapter) } : {}),
      ...(subset?.length ? { documentIds: subset } : {}),
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
    /**
     * The blueprint's Bloom levels are the same choice as these (one source of truth): a change
     * there is kept here, so the retrieval settings and a later blueprint show it. All six = none
     * ticked here (no Bloom targeting).
     */
    setBloomFromBlueprint: (levels: EBloomLevel[]) =>
      setBloom(levels.length === BLOOM_LEVELS.length ? [] : BLOOM_LEVELS.filter((l) => levels.includes(l))),
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
  const queryClient = useQueryClient();
  const pathname = usePathname();
  const params = useSearchParams();
  const session = useRetrievalSession();
  const scope = useScope(session.clear);
  const draft = useQueryDraft(params.get("q") ?? "");
  const settings = useSettings();
  const enhance = useRetrievalEnhancement();
  const [request, setRequest] = useState<TRetrievalQueryInput | null>(null);
  const [excluded, setExcluded] = useState<Set<string>>(new Set());
  const [context, setContext] = useState<TContextRef[] | null>(null);
  // A saved set reopened (Recent sets, the URL's `set`): its cards and review state.
  const [openedSet, setOpenedSet] = useState<TQuestionSet | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  const [openError, setOpenError] = useState<string | null>(null);
  // The reopened set's passages: ticked in its re-run results, the rest unticked.
  const keepOnly = useRef<Set<string> | null>(null);
  const results = useRetrievalQuery(request);

  // A new answer: record it in the session and preselect only passages that are clearly relevant.
  const answer = results.data;
  const recordTurn = session.record;
  useEffect(() => {
    if (!answer || !request) return;
    recordTurn(request, answer.session.turn);
    const keep = keepOnly.current;
    setExcluded(
      new Set(answer.items.filter((i) => (keep ? !keep.has(passageKey(i)) : i.weak)).map(passageKey)),
    );
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
    setOpenedSet(null);
    keepOnly.current = null;
    const { board, grade, subject, chapter } = scope;
    syncUrl({ board, grade, subject, chapter, res: scope.subsetParam, q: draft.query, set: "" });
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

  /**
   * Reopens a saved set: its scope and query come back, its search is run again (the results to go
   * back to, its passages ticked), and the generation panel shows its cards with their review state.
   */
  async function openSet(setId: string) {
    setOpening(setId);
    setOpenError(null);
    try {
      const { set } = await getQuestionSet(setId);
      scope.restore(set.filters);
      const query = set.topic ?? "";
      draft.setQuery(query);
      keepOnly.current = new Set(set.context.map(passageKey));
      setExcluded(new Set());
      if (query) {
        setRequest({
          filters: set.filters,
          query,
          topK: Math.max(settings.topK, Math.min(50, set.context.length)),
          enableRerank: settings.rerank,
        });
      }
      setOpenedSet(set);
      setContext(set.context);
      const { board, grade, subject, chapterNumber, documentIds } = set.filters;
      syncUrl({
        board,
        grade,
        subject,
        chapter: chapterNumber !== undefined ? String(chapterNumber) : "",
        res: documentIds?.join(",") ?? "",
        q: query,
        set: set.id,
      });
    } catch (err) {
      setOpenError(err instanceof Error ? err.message : "Could not open the set");
    } finally {
      setOpening(null);
    }
  }

  // The URL names a set (a reload, Back from Papers): open it once.
  const urlSet = useRef(params.get("set"));
  const openSetRef = useRef(openSet);
  openSetRef.current = openSet;
  useEffect(() => {
    const id = urlSet.current;
    urlSet.current = null;
    if (id && /^[0-9a-f-]{36}$/i.test(id)) void openSetRef.current(id);
  }, []);

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
    openedSet,
    opening,
    openError,
    openSet,
    sendSelectedToGeneration: () => {
      setOpenedSet(null);
      setContext(selected);
      syncUrl({ set: "" });
    },
    backToResults: () => {
      setContext(null);
      keepOnly.current = null;
      // Review counts in Recent sets may have changed.
      void queryClient.invalidateQueries({ queryKey: recentSetsKey });
    },
    /** A generated set was saved: the URL names it, so a reload or Back from Papers reopens it. */
    setSaved: (setId: string) => {
      syncUrl({ set: setId });
      void queryClient.invalidateQueries({ queryKey: recentSetsKey });
    },
  };
}
export type TQuestionsBuilder = ReturnType<typeof useQuestionsBuilder>;
