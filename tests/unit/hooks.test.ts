// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { usePaperEditor } from "@/hooks/use-paper-editor";
import { useAddToPaper } from "@/hooks/use-papers";
import { useRetrievalEnhancement, useRetrievalQuery } from "@/hooks/use-retrieval";
import type { IPaper } from "@/types/paper.types";

type TRoute = (
  url: string,
  init: RequestInit,
) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;

let calls: { url: string; method: string; body: unknown }[] = [];
let route: TRoute;

beforeEach(() => {
  calls = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, method: init.method ?? "GET", body });
    const res = await route(url, init);
    return new Response(JSON.stringify(res.body), {
      status: res.status ?? 200,
      headers: { "content-type": "application/json" },
    });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
}

const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };

describe("useRetrievalQuery", () => {
  it("does nothing without a request, then posts it once and serves the same request from cache", async () => {
    route = () => ({ body: { ok: true, items: [{ chunkIndex: 1 }], confidence: 70 } });
    const request = { filters: FILTERS, query: "osmosis" };
    const { result, rerender } = renderHook(({ r }) => useRetrievalQuery(r), {
      wrapper: wrapper(),
      initialProps: { r: null as typeof request | null },
    });
    expect(result.current.fetchStatus).toBe("idle");
    expect(calls).toHaveLength(0);
    rerender({ r: request });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(calls).toEqual([{ url: "/api/retrieval/query", method: "POST", body: request }]);
    rerender({ r: { ...request } });
    expect(result.current.data?.items).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  it("surfaces the server's error message and code", async () => {
    route = () => ({
      status: 503,
      body: { ok: false, error: { code: "unavailable", message: "Database busy" } },
    });
    const { result } = renderHook(() => useRetrievalQuery({ filters: FILTERS, query: "x" }), {
      wrapper: wrapper(),
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error?.message).toBe("Database busy");
    expect((result.current.error as { code?: string }).code).toBe("unavailable");
  });
});

describe("useRetrievalEnhancement", () => {
  it("posts the raw query and filters and returns the enhanced query", async () => {
    route = () => ({ body: { ok: true, enhancedQuery: "osmosis water diffusion", explanations: [] } });
    const { result } = renderHook(() => useRetrievalEnhancement(), { wrapper: wrapper() });
    await act(async () => {
      await result.current.mutateAsync({ rawQuery: "osmosis", filters: FILTERS });
    });
    expect(calls[0]).toMatchObject({
      url: "/api/retrieval/enhance-query",
      method: "POST",
      body: { rawQuery: "osmosis" },
    });
    await waitFor(() => expect(result.current.data?.enhancedQuery).toBe("osmosis water diffusion"));
  });
});

function paperFixture(version = 1): IPaper {
  return {
    id: "11111111-1111-4111-8111-111111111111",
    title: "Unit test",
    board: "CBSE",
    grade: "10",
    subject: "Science",
    durationMinutes: 45,
    totalMarks: 1,
    instructions: [],
    sections: [
      { id: "22222222-2222-4222-8222-222222222222", name: "Section A", questionType: "mixed", items: [] },
    ],
    version,
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date(0).toISOString(),
  };
}

describe("usePaperEditor", () => {
  it("applies edits locally at once, recomputes the check, and autosaves the latest draft once", async () => {
    let version = 1;
    route = (_url, init) => {
      if (init.method === "PUT") {
        version++;
        const sent = JSON.parse(String(init.body)) as IPaper;
        return { body: { ok: true, paper: { ...paperFixture(version), title: sent.title }, check: {} } };
      }
      return { body: { ok: true, paper: paperFixture(version), check: {} } };
    };
    const { result } = renderHook(() => usePaperEditor(paperFixture().id), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.draft).not.toBeNull());
    expect(result.current.check?.problems.map((p) => p.message)).toContain(
      'Section "Section A" has no questions',
    );
    act(() =>
      result.current.update((p) => {
        p.title = "Mid-term";
      }),
    );
    act(() =>
      result.current.update((p) => {
        p.title = "Mid-term 2026";
      }),
    );
    expect(result.current.draft?.title).toBe("Mid-term 2026");
    expect(result.current.state).toBe("dirty");
    await waitFor(() => expect(result.current.state).toBe("saved"), { timeout: 3000 });
    const puts = calls.filter((c) => c.method === "PUT");
    expect(puts).toHaveLength(1);
    expect(puts[0]!.body).toMatchObject({ title: "Mid-term 2026", version: 1 });
    expect(result.current.draft?.version).toBe(2);
  });

  it("stops on 409 and offers a reload instead of overwriting a newer save", async () => {
    route = (_url, init) =>
      init.method === "PUT"
        ? {
            status: 409,
            body: { ok: false, error: { code: "conflict", message: "The paper was changed elsewhere" } },
          }
        : { body: { ok: true, paper: paperFixture(5), check: {} } };
    const { result } = renderHook(() => usePaperEditor(paperFixture().id), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.draft).not.toBeNull());
    act(() =>
      result.current.update((p) => {
        p.title = "Stale edit";
      }),
    );
    await waitFor(() => expect(result.current.state).toBe("conflict"), { timeout: 3000 });
    expect(result.current.error).toMatch(/changed elsewhere/);
    await act(async () => {
      await result.current.reload();
    });
    expect(result.current.state).toBe("saved");
    expect(result.current.draft?.title).toBe("Unit test");
  });

  it("flushes pending edits before a server action and adopts the action's result", async () => {
    let version = 1;
    route = (url, init) => {
      if (init.method === "PUT") return { body: { ok: true, paper: paperFixture(++version), check: {} } };
      if (url.endsWith("/swap")) {
        const sent = JSON.parse(String(init.body)) as { version: number };
        expect(sent.version).toBe(version);
        return { body: { ok: true, paper: { ...paperFixture(++version), title: "After swap" }, check: {} } };
      }
      return { body: { ok: true, paper: paperFixture(version), check: {} } };
    };
    const { result } = renderHook(() => usePaperEditor(paperFixture().id), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.draft).not.toBeNull());
    act(() =>
      result.current.update((p) => {
        p.durationMinutes = 60;
      }),
    );
    await act(async () => {
      await result.current.runServer(async (v) => {
        const res = await fetch(`/api/papers/x/items/y/swap`, {
          method: "POST",
          body: JSON.stringify({ version: v }),
        });
        return res.json();
      });
    });
    expect(calls.map((c) => c.method)).toEqual(["GET", "PUT", "POST"]);
    expect(result.current.draft?.title).toBe("After swap");
    expect(result.current.state).toBe("saved");
  });
});

describe("useAddToPaper", () => {
  it("posts the picked question ids to the paper", async () => {
    route = () => ({ body: { ok: true, paper: paperFixture(2), check: {}, added: 2, skipped: 0 } });
    const { result } = renderHook(() => useAddToPaper(), { wrapper: wrapper() });
    await act(async () => {
      await result.current.mutateAsync({ paperId: "p1", questionIds: ["a", "b"] });
    });
    expect(calls[0]).toEqual({
      url: "/api/papers/p1/items",
      method: "POST",
      body: { questionIds: ["a", "b"] },
    });
  });
});
