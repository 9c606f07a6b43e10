/**
 * npm run bench:generation — offline generator latency through the real route handler: time to
 * the first final question part and to the whole set, for 10- and 20-question blueprints over the
 * demo photosynthesis chapter, in a fresh embedded database.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { openOfflineWorkspace } from "./support/workspace";

const dir = await mkdtemp(path.join(os.tmpdir(), "paperwise-bench-gen-"));
const workspace = await openOfflineWorkspace(dir, { PAPERWISE_RATE_LIMIT_PER_MIN: "0" });
const { issueSession } = await import("@/lib/auth/sessions");
const { createAccount, generatePassword } = await import("@/lib/auth/accounts");
const { POST } = await import("@/app/api/generation/route");

const { db } = workspace;
// A fresh workspace has no demo accounts (PAPERWISE_SEED_DEMO=false): the bench has its own teacher.
const teacher = await createAccount(db, {
  email: "bench-teacher@paperwise.local",
  password: generatePassword(),
  role: "teacher",
});
const [book] = await workspace.ingest(
  [path.join(process.cwd(), "supabase/seed/demo/biology-2e/ch08-photosynthesis.md")],
  {
    board: "OpenStax",
    grade: "11",
    subject: "Biology",
  },
);
const documentId = book!.ingestion!.document_id!;
const token = (await issueSession(db, teacher)).accessToken;

async function once(counts: [number, number, number]) {
  const body = {
    filters: { board: "OpenStax", grade: "11", subject: "Biology" },
    context: Array.from({ length: 12 }, (_, i) => ({ documentId, chunkIndex: i + 1 })),
    blueprint: {
      items: [
        { type: "mcq", count: counts[0] },
        { type: "short", count: counts[1] },
        { type: "long", count: counts[2] },
      ],
      bloomTargets: ["Remember", "Understand", "Apply", "Analyze", "Evaluate", "Create"],
    },
  };
  const started = performance.now();
  const res = await POST(
    new Request("http://localhost/api/generation", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    {},
  );
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let first = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (!first && text.includes('"status":"final"')) first = performance.now() - started;
  }
  return {
    first,
    total: performance.now() - started,
    finals: (text.match(/"status":"final"/g) ?? []).length,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log("| blueprint | questions | first question p50 ms | full set p50 ms | max ms |");
console.log("|---|---:|---:|---:|---:|");
for (const [label, counts] of [
  ["6 MCQ + 3 short + 1 long", [6, 3, 1]],
  ["12 MCQ + 6 short + 2 long", [12, 6, 2]],
] as const) {
  await once(counts as [number, number, number]);
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await once(counts as [number, number, number]));
  console.log(
    `| ${label} | ${runs[0]!.finals} | ${median(runs.map((r) => r.first)).toFixed(1)} | ${median(runs.map((r) => r.total)).toFixed(1)} | ${Math.max(...runs.map((r) => r.total)).toFixed(1)} |`,
  );
}
await db.close();
await rm(dir, { recursive: true, force: true });
