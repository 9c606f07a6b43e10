"use client";

import { useCallback, useRef, useState } from "react";
import type { TSessionTurn } from "@/schema/retrieval.schema";

/** The API takes at most this many earlier turns. */
const MAX_TURNS = 10;

/**
 * The builder session's earlier searches, sent with each retrieval so follow-ups resolve against
 * them. A result is recorded once per request (a cached or refetched answer adds nothing).
 */
export function useRetrievalSession() {
  const [turns, setTurns] = useState<TSessionTurn[]>([]);
  const recordedFor = useRef<unknown>(null);
  const record = useCallback((request: unknown, turn: TSessionTurn) => {
    if (recordedFor.current === request) return;
    recordedFor.current = request;
    // Only the latest turn's result list is ever referred to ("the second one"): older turns drop
    // theirs, so the request stays small.
    setTurns((current) =>
      [...current.map(({ results: _results, ...older }) => older), turn].slice(-MAX_TURNS),
    );
  }, []);
  const clear = useCallback(() => {
    recordedFor.current = null;
    setTurns([]);
  }, []);
  return { turns, record, clear };
}
