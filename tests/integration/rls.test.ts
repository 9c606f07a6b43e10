import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEmbedder } from "@/lib/ai/embedder";
import type { ISqlExecutor } from "@/lib/db";
import { createPaper } from "@/lib/papers/store";
import { hybridSearch } from "@/lib/retrieval/store";
import { BIOLOGY, ingestDemoChapter, ingestOne } from "../support/demo-data";
import { testDbKind } from "../support/test-db";
import { createTestEnv, type ITestEnv } from "../support/test-env";

/**
 * Row-level security as Supabase runs it: a client's request executes under the `anon` or
 * `authenticated` role, with the verified JWT claims in `request.jwt.claims`, both set per
 * transaction (`set local`), and the policies read `auth.uid()`. The app server connects as the
 * table owner and applies the same predicates itself; these tests show the policies hold on their
 * own for a client that talks to the database directly (a Supabase RPC or REST call).
 *
 * Real roles need a real server: this suite runs only in the Postgres pass (vitest.config.ts);
 * on PGlite the runner reports it as not applicable.
 */
if (testDbKind() !== "postgres") {
  throw new Error("rls.test.ts needs a real Postgres: run it in the `postgres` Vitest project");
}

/** Supabase's API roles and grants (a plain PostgreSQL server has neither). */
const SUPABASE_ROLES_SHIM = `
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then create role anon nologin noinherit; end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
end
$$;
grant usage on schema public, auth to anon, authenticated;
grant select, insert, update, delete on all tables in schema public to anon, authenticated;
grant usage on all sequences in schema public to anon, authenticated;
grant execute on all functions in schema public, auth to anon, authenticated;
`;

const PRIVATE_A = "zygomorphic quokka pollination";
const PRIVATE_B = "heliotropic wombat respiration";

let env: ITestEnv;
let sharedDoc: string;
let docA: string;
let docB: string;

/** Runs `fn` as PostgREST would for a request with these claims (null: no JWT, the anon role). */
function asClient<T>(sub: string | null, fn: (tx: ISqlExecutor) => Promise<T>): Promise<T> {
  return env.db.transaction(async (tx) => {
    await tx.exec(`set local role ${sub ? "authenticated" : "anon"}`);
    const claims = sub ? { sub, role: "authenticated", aud: "authenticated" } : { role: "anon" };
    await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
    return fn(tx);
  });
}

const visibleDocuments = (tx: ISqlExecutor, table: string) =>
  tx
    .query<{ id: string }>(`select distinct document_id as id from ${table} order by 1`)
    .then((rows) => rows.map((r) => r.id).sort());

beforeAll(async () => {
  env = await createTestEnv();
  await env.db.exec(SUPABASE_ROLES_SHIM);
  const notes = (text: string) => ({
    name: "notes.md",
    text: `# My notes\n\n## Plants\n\nThese are my own notes on ${text}, written for one class only. ${text} again.\n`,
  });
  sharedDoc = await ingestDemoChapter(env, "ch08-photosynthesis.md", 8);
  docA = await ingestOne(env, {
    userId: env.teacher.id,
    markdown: notes(PRIVATE_A),
    defaults: { ...BIOLOGY, resourceType: "notes", visibility: "private" },
  });
  docB = await ingestOne(env, {
    userId: env.otherTeacher.id,
    markdown: notes(PRIVATE_B),
    defaults: { ...BIOLOGY, resourceType: "notes", visibility: "private" },
  });
});
afterAll(async () => env.close());

describe("row-level security under Supabase roles (real Postgres)", () => {
  it("a teacher selecting chunks, postings, companions or documents sees shared and own, never another's private", async () => {
    const expected = [sharedDoc, docA].sort();
    await asClient(env.teacher.id, async (tx) => {
      for (const table of ["document_chunks", "chunk_terms", "chunk_lite"]) {
        expect(await visibleDocuments(tx, table), table).toEqual(expected);
      }
      const docs = await tx.query<{ id: string }>("select id from documents order by id");
      expect(docs.map((d) => d.id).sort()).toEqual(expected);
      const ingestions = await tx.query<{ user_id: string; visibility: string }>(
        "select user_id, visibility from ingestions",
      );
      expect(ingestions.filter((i) => i.visibility === "private").map((i) => i.user_id)).toEqual([
        env.teacher.id,
      ]);
      const leaked = await tx.query("select 1 from document_chunks where content ilike $1", [
        `%${PRIVATE_B}%`,
      ]);
      expect(leaked).toHaveLength(0);
      const own = await tx.query("select 1 from document_chunks where content ilike $1", [`%${PRIVATE_A}%`]);
      expect(own.length).toBeGreaterThan(0);
    });
    // The other teacher, symmetrically.
    await asClient(env.otherTeacher.id, async (tx) => {
      expect(await visibleDocuments(tx, "document_chunks")).toEqual([sharedDoc, docB].sort());
    });
  });

  it("paperwise_hybrid_search as a teacher never returns another's private chunk, even when called with that user's id", async () => {
    const embedder = getEmbedder();
    const search = async (tx: ISqlExecutor, userId: string) =>
      hybridSearch(tx, {
        userId,
        ...BIOLOGY,
        resourceTypes: null,
        chapterNumber: null,
        chapterName: null,
        query: PRIVATE_B,
        embedding: await embedder.embedQuery(PRIVATE_B),
        embeddingModel: embedder.modelId,
        alpha: 0.5,
        limit: 50,
      });
    // Control: bypassing RLS (the table owner) with B's id, the search does find B's notes first.
    const owner = await search(env.db, env.otherTeacher.id);
    expect(owner[0]?.document_id).toBe(docB);

    for (const claimedUser of [env.teacher.id, env.otherTeacher.id]) {
      const rows = await asClient(env.teacher.id, (tx) => search(tx, claimedUser));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((r) => r.document_id === docB)).toBe(false);
      expect(new Set(rows.map((r) => r.document_id))).toEqual(
        new Set(rows.map((r) => r.document_id).filter((d) => d === sharedDoc || d === docA)),
      );
    }
    // B, asking as B, finds them: the policies restrict, they do not break the search.
    const mine = await asClient(env.otherTeacher.id, (tx) => search(tx, env.otherTeacher.id));
    expect(mine[0]?.document_id).toBe(docB);
  });

  it("anon (no JWT) sees no curriculum, no accounts and no one's papers", async () => {
    await createPaper(env.db, env.teacher.id, {
      template: "unit-test-20",
      title: "A's paper",
      ...BIOLOGY,
    });
    await asClient(null, async (tx) => {
      for (const table of [
        "documents",
        "document_chunks",
        "chunk_terms",
        "chunk_lite",
        "ingestions",
        "profiles",
        "papers",
        "question_sets",
        "api_tokens",
      ]) {
        const [row] = await tx.query<{ n: number }>(`select count(*)::int as n from ${table}`);
        expect(row!.n, table).toBe(0);
      }
    });
  });

  it("per-user tables: a teacher sees only their own papers and profile", async () => {
    await createPaper(env.db, env.otherTeacher.id, { template: "blank", title: "B's paper", ...BIOLOGY });
    await asClient(env.teacher.id, async (tx) => {
      const papers = await tx.query<{ user_id: string }>("select user_id from papers");
      expect(papers.length).toBeGreaterThan(0);
      expect(papers.every((p) => p.user_id === env.teacher.id)).toBe(true);
      const profiles = await tx.query<{ id: string }>("select id from profiles");
      expect(profiles.map((p) => p.id)).toEqual([env.teacher.id]);
    });
  });

  it("a teacher's connection cannot write curriculum: no insert, update or delete gets through", async () => {
    await expect(
      asClient(env.teacher.id, (tx) =>
        tx.query(
          `insert into documents (ingestion_id, owner_id, board, grade, subject, resource_type, visibility, title,
             bucket, path, mime_type, embedding_model)
           select ingestion_id, $1, board, grade, subject, resource_type, 'shared', 'forged', bucket, path || 'x',
             mime_type, embedding_model from documents where id = $2`,
          [env.teacher.id, docA],
        ),
      ),
    ).rejects.toThrow(/row-level security/);
    const changed = await asClient(env.teacher.id, async (tx) => ({
      published: await tx.query("update documents set visibility = 'shared' where id = $1 returning id", [
        docA,
      ]),
      deleted: await tx.query("delete from document_chunks where document_id = $1 returning 1", [sharedDoc]),
    }));
    expect(changed).toEqual({ published: [], deleted: [] });
    const [still] = await env.db.query<{ visibility: string }>(
      "select visibility from documents where id = $1",
      [docA],
    );
    expect(still!.visibility).toBe("private");
  });

  it("claims and role last one transaction: the pooled connection is the server's again afterwards", async () => {
    const sql = postgres(env.location, { max: 1, onnotice: () => {} });
    try {
      const inside = await sql.begin(async (tx) => {
        await tx.unsafe("set local role authenticated");
        await tx.unsafe("select set_config('request.jwt.claims', $1, true)", [
          JSON.stringify({ sub: env.teacher.id, role: "authenticated" }),
        ]);
        return tx.unsafe("select auth.uid()::text as uid, current_user as role");
      });
      expect(inside[0]).toEqual({ uid: env.teacher.id, role: "authenticated" });
      const after = await sql.unsafe("select auth.uid()::text as uid, current_user as role");
      expect(after[0]).toEqual({ uid: null, role: "postgres" });
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});
