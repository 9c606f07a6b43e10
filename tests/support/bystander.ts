import { expect } from "vitest";
import { POST as query } from "@/app/api/retrieval/query/route";
import { makeRequest } from "./test-env";

/**
 * One simple retrieval by another teacher (the "bystander" of docs/isolation.md), through the real
 * route handler; resolves to its wall time in milliseconds once the body is read.
 */
export async function bystanderRetrievalMs(
  token: string,
  filters: Record<string, string>,
  text = "what does the cell membrane do",
): Promise<number> {
  const t0 = performance.now();
  const res = await query(
    makeRequest("POST", "/api/retrieval/query", { token, json: { filters, query: text, topK: 6 } }),
    {},
  );
  expect(res.status).toBe(200);
  await res.json();
  return performance.now() - t0;
}
