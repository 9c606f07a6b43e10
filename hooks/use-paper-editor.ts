"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { AppError } from "@/lib/errors";
import { checkPaper } from "@/lib/papers/check";
import type { TPaperUpdate } from "@/schema/paper.schema";
import { getPaper, type IPaperResponse, putPaper } from "@/services/papers.services";
import type { IPaper } from "@/types/paper.types";
import { paperKeys, paperQuery } from "./use-papers";

export type TSaveState = "saved" | "dirty" | "saving" | "error" | "conflict";

/** The stored paper as the PUT body. */
export function toUpdate(p: IPaper): TPaperUpdate {
  const { id: _id, createdAt: _c, updatedAt: _u, blueprint, ...rest } = p;
  return { ...rest, blueprint: blueprint ?? null } as TPaperUpdate;
}

const AUTOSAVE_MS = 700;

/**
 * The paper builder's state: a local draft edited synchronously (the blueprint check is computed
 * from it on every change), saved to the server shortly after the last edit. Server-side actions
 * (add, swap, regenerate) first flush pending edits, then replace the draft with the answer.
 * A save refused with 409 stops autosave and asks for a reload instead of overwriting.
 */
export function usePaperEditor(id: string) {
  const qc = useQueryClient();
  const query = useQuery(paperQuery(id));
  const [draft, setDraft] = useState<IPaper | null>(null);
  const [state, setState] = useState<TSaveState>("saved");
  const [error, setError] = useState<string | null>(null);
  const draftRef = useRef<IPaper | null>(null);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inflight = useRef<Promise<void> | null>(null);

  useEffect(() => {
    if (query.data && draftRef.current === null) {
      draftRef.current = query.data.paper;
      setDraft(query.data.paper);
    }
  }, [query.data]);

  const accept = useCallback(
    (res: IPaperResponse) => {
      draftRef.current = res.paper;
      setDraft(res.paper);
      qc.setQueryData(paperKeys.detail(id), res);
      void qc.invalidateQueries({ queryKey: paperKeys.list() });
    },
    [id, qc],
  );

  const save = useCallback(async (): Promise<void> => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (inflight.current) await inflight.current;
    const current = draftRef.current;
    if (!current) return;
    const mySeq = seq.current;
    setState("saving");
    const run = (async () => {
      try {
        const res = await putPaper(id, toUpdate(current));
        if (seq.current === mySeq) {
          accept(res);
          setState("saved");
          setError(null);
        } else {
          // Edited while saving: keep the newer local edits, adopt the new version, save again.
          draftRef.current = { ...draftRef.current!, version: res.paper.version };
          setDraft(draftRef.current);
          setState("dirty");
        }
      } catch (err) {
        const e = err instanceof AppError ? err : new AppError("internal", String(err));
        setState(e.code === "conflict" ? "conflict" : "error");
        setError(
          e.details?.length
            ? `${e.message}: ${e.details.map((d) => `${d.path} ${d.message}`).join("; ")}`
            : e.message,
        );
        throw e;
      }
    })();
    inflight.current = run
      .catch(() => undefined)
      .finally(() => {
        inflight.current = null;
      });
    await run;
  }, [id, accept]);

  /** Applies an edit to a copy of the draft and schedules a save. */
  const update = useCallback(
    (edit: (p: IPaper) => void) => {
      const base = draftRef.current;
      if (!base) return;
      const next = structuredClone(base);
      edit(next);
      draftRef.current = next;
      seq.current++;
      setDraft(next);
      setState((s) => (s === "conflict" ? s : "dirty"));
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void save().catch(() => undefined), AUTOSAVE_MS);
    },
    [save],
  );

  /** Runs a server-side action on the saved paper (after flushing edits) and adopts its result. */
  const runServer = useCallback(
    async (action: (version: number) => Promise<IPaperResponse>) => {
      if (state !== "saved" || timer.current) await save();
      const res = await action(draftRef.current!.version);
      accept(res);
      setState("saved");
      return res;
    },
    [accept, save, state],
  );

  const reload = useCallback(async () => {
    const res = await getPaper(id);
    seq.current++;
    accept(res);
    setState("saved");
    setError(null);
  }, [id, accept]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const check = useMemo(() => (draft ? checkPaper(draft) : null), [draft]);
  return { query, draft, check, state, error, update, save, runServer, reload };
}
