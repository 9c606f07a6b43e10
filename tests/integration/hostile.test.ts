import path from "node:path";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as login } from "@/app/api/auth/login/route";
import { GET as me } from "@/app/api/auth/me/route";
import { POST as generation } from "@/app/api/generation/route";
import { GET as exportPaper } from "@/app/api/papers/[id]/export/route";
import { POST as addItems } from "@/app/api/papers/[id]/items/route";
import { GET as pyqCheck } from "@/app/api/papers/[id]/pyq-check/route";
import { DELETE as deletePaper, GET as getPaper, PUT as putPaper } from "@/app/api/papers/[id]/route";
import { POST as createPaperRoute, GET as listPapers } from "@/app/api/papers/route";
import { GET as getSet } from "@/app/api/question-sets/[id]/route";
import { PATCH as patchQuestion } from "@/app/api/questions/[id]/route";
import { GET as searchQuestions } from "@/app/api/questions/route";
import { GET as chunks } from "@/app/api/resources/[id]/chunks/route";
import { GET as file } from "@/app/api/resources/[id]/file/route";
import { POST as retry } from "@/app/api/resources/[id]/retry/route";
import { DELETE as del, GET as getResource } from "@/app/api/resources/[id]/route";
import { GET as list, POST as upload } from "@/app/api/resources/route";
import { POST as enhance } from "@/app/api/retrieval/enhance-query/route";
import { GET as facets } from "@/app/api/retrieval/facets/route";
import { POST as query } from "@/app/api/retrieval/query/route";
import { DELETE as revokeToken } from "@/app/api/tokens/[id]/route";
import { POST as createToken, GET as listTokens } from "@/app/api/tokens/route";
import { DELETE as deleteUser, PATCH as updateUser } from "@/app/api/users/[id]/route";
import { DELETE as revokeUserToken } from "@/app/api/users/[id]/tokens/[tokenId]/route";
import { GET as listUserTokens } from "@/app/api/users/[id]/tokens/route";
import { getEmbedder } from "@/lib/ai/embedder";
import { createApiToken } from "@/lib/auth/api-tokens";
import { ingestFiles } from "@/lib/ingestion/ingest-files";
import { createPaper } from "@/lib/papers/store";
import { getStorage } from "@/lib/storage";
import { ingestDemoChapter } from "../support/demo-data";
import { makeDocx, makeImageOnlyPdf, makeZip, PNG_BYTES, randomBytes } from "../support/make-fixtures";
import {
  createTestEnv,
  dbSnapshot,
  type ITestEnv,
  makeRequest,
  params,
  STACK_TRACE,
} from "../support/test-env";

/**
 * At least 200 hostile requests across every endpoint: each must get a 4xx with a readable JSON
 * error, never a 500, a stack trace or someone else's data, and must leave the database as it was.
 */

type THandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
interface ICase {
  name: string;
  handler: THandler;
  request: () => Request | Promise<Request>;
  id?: string;
  expect?: number[];
}

const FILTERS = { board: "OpenStax", grade: "11", subject: "Biology" };
const DEMO = path.join(import.meta.dirname, "../../supabase/seed/demo/biology-2e");

let env: ITestEnv;
let privateId = "";
let paperId = "";
let paperBody: Record<string, unknown> = {};
let documentId = "";
const scoped: Record<"writeOnly" | "retrievalOnly", string> = { writeOnly: "", retrievalOnly: "" };
beforeAll(async () => {
  env = await createTestEnv({ PAPERWISE_MAX_UPLOAD_MB: "1" });
  await ingestDemoChapter(env, "ch08-photosynthesis.md", 8, "Photosynthesis");
  const [priv] = await ingestFiles(env.db, getStorage(), getEmbedder(), {
    userId: env.teacher.id,
    inputs: [path.join(DEMO, "ch05-structure-and-function-of-plasma-membranes.md")],
    defaults: { ...FILTERS, resourceType: "notes", visibility: "private" },
    maxBytes: 10 * 1024 * 1024,
  });
  privateId = priv!.ingestion!.id;
  documentId = (await env.db.query<{ id: string }>("select id from documents limit 1"))[0]!.id;
  for (const [key, scope] of [
    ["writeOnly", "resources:write"],
    ["retrievalOnly", "retrieval:read"],
  ] as const) {
    scoped[key] = (
      await createApiToken(env.db, { userId: env.teacher.id, name: key, scopes: [scope] })
    ).token;
  }
  const paper = await createPaper(env.db, env.teacher.id, {
    template: "unit-test-20",
    title: "Hostile paper",
    ...FILTERS,
  });
  paperId = paper.id;
  const { id: _i, createdAt: _c, updatedAt: _u, ...rest } = paper;
  paperBody = { ...rest, blueprint: rest.blueprint ?? null };
});
afterAll(async () => env.close());

const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "x".repeat(2001),
  "x".repeat(300_000),
  "\u202e\u202d RTL override",
  "\u200b\u200c\u200d\ufeff",
  "😀".repeat(600),
  "' or 1=1 --",
  "'; drop table documents; --",
  "osmosis & | ! :* <-> ( ) '",
  "!!!&&&|||",
  "a:*b:*c:*",
  "(a|b)&!c<->d",
  `${"(".repeat(500)}a${")".repeat(500)}`,
  "(a+)+$".repeat(100),
  "%s%s%n",
  "../../../../etc/passwd",
  "<script>alert(1)</script>",
];

const HOSTILE_VALUES: unknown[] = [null, 0, -1, Number.MAX_VALUE, true, [], {}, "8", [1, 2], { $gt: 1 }];

function json(url: string, body: unknown, token?: string) {
  return () => makeRequest("POST", url, { token: token ?? env.teacher.token, json: body });
}
function raw(url: string, body: string, contentType = "application/json", token?: string) {
  return () =>
    makeRequest("POST", url, {
      token: token ?? env.teacher.token,
      body,
      headers: { "content-type": contentType },
    });
}

function buildCases(): ICase[] {
  const cases: ICase[] = [];
  const q = "/api/retrieval/query";
  const e = "/api/retrieval/enhance-query";
  // Malformed bodies on every JSON endpoint.
  for (const [url, handler] of [
    [q, query],
    [e, enhance],
    ["/api/auth/login", login],
    ["/api/tokens", createToken],
  ] as const) {
    for (const body of [
      "",
      "{",
      "null",
      "[]",
      '"str"',
      "1",
      '{"a":',
      "\u0000",
      "{}".repeat(1000),
      '{"__proto__":{"x":1}}',
    ]) {
      cases.push({
        name: `${url} malformed ${JSON.stringify(body).slice(0, 20)}`,
        handler,
        request: raw(url, body),
      });
    }
    cases.push({
      name: `${url} wrong content type`,
      handler,
      request: raw(url, "query=osmosis", "application/x-www-form-urlencoded"),
    });
    cases.push({
      name: `${url} oversized body`,
      handler,
      request: raw(url, JSON.stringify({ pad: "x".repeat(400_000) })),
    });
  }
  // Hostile strings in the query, which must be valid searches or clear 400s.
  for (const s of HOSTILE_STRINGS) {
    cases.push({
      name: `query text ${JSON.stringify(s).slice(0, 24)}`,
      handler: query,
      request: json(q, { filters: FILTERS, query: s }),
      expect: [200, 400, 413],
    });
    cases.push({
      name: `enhance text ${JSON.stringify(s).slice(0, 24)}`,
      handler: enhance,
      request: json(e, { filters: FILTERS, rawQuery: s }),
      expect: [200, 400, 413],
    });
    cases.push({
      name: `board ${JSON.stringify(s).slice(0, 24)}`,
      handler: query,
      request: json(q, { filters: { ...FILTERS, board: s }, query: "osmosis" }),
      expect: [200, 400, 413],
    });
  }
  // Wrong types and out-of-range numbers for every field.
  for (const v of HOSTILE_VALUES) {
    for (const field of [
      "query",
      "topK",
      "alpha",
      "bloomTargets",
      "enableRerank",
      "rerankFanout",
      "filters",
    ]) {
      cases.push({
        name: `query ${field}=${JSON.stringify(v)}`,
        handler: query,
        request: json(q, { filters: FILTERS, query: "osmosis", [field]: v }),
        expect: field === "filters" || (field === "query" && typeof v !== "string") ? [400] : [200, 400],
      });
    }
  }
  for (const [field, v] of [
    ["topK", 0],
    ["topK", 51],
    ["topK", 2.5],
    ["alpha", -0.1],
    ["alpha", 1.01],
    ["rerankFanout", 10_000],
    ["bloomTargets", ["Memorise"]],
    ["bloomDistribution", { Remember: -1 }],
    ["unknownField", 1],
  ] as const) {
    cases.push({
      name: `query out of range ${field}`,
      handler: query,
      request: json(q, { filters: FILTERS, query: "osmosis", [field]: v }),
      expect: [400],
    });
  }
  // Authentication: missing, malformed, forged, expired, other-secret tokens on every endpoint.
  const authVariants: [string, () => Promise<Record<string, string>>][] = [
    ["no auth", async () => ({})],
    ["basic", async () => ({ authorization: "Basic YWRtaW46YWRtaW4=" })],
    ["empty bearer", async () => ({ authorization: "Bearer " })],
    ["garbage bearer", async () => ({ authorization: "Bearer abc.def.ghi.jkl" })],
    [
      "alg none",
      async () => ({
        authorization: `Bearer ${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ sub: env.admin.id, aud: "authenticated", app_metadata: { role: "admin" } })).toString("base64url")}.`,
      }),
    ],
    [
      "other secret",
      async () => ({
        authorization: `Bearer ${await new SignJWT({ app_metadata: { role: "admin" } })
          .setProtectedHeader({ alg: "HS256" })
          .setSubject(env.admin.id)
          .setAudience("authenticated")
          .setExpirationTime("1h")
          .sign(new TextEncoder().encode("x".repeat(48)))}`,
      }),
    ],
    [
      "expired",
      async () => ({
        authorization: `Bearer ${await new SignJWT({ app_metadata: { role: "admin" } })
          .setProtectedHeader({ alg: "HS256" })
          .setSubject(env.admin.id)
          .setAudience("authenticated")
          .setExpirationTime(1000)
          .sign(new TextEncoder().encode("test-secret-test-secret-test-secret-0123456789"))}`,
      }),
    ],
    ["unknown api token", async () => ({ authorization: "Bearer pw_thisisnotarealtokenatall" })],
    ["forged cookie", async () => ({ cookie: "pw_session=eyJhbGciOiJIUzI1NiJ9.e30.xxxx" })],
    // Not valid percent-encoding: decodeURIComponent used to throw (a 500 on every route).
    ["malformed cookie", async () => ({ cookie: "pw_session=%E0%A4%A" })],
    ["malformed cookie among others", async () => ({ cookie: "theme=dark; pw_session=%; lang=en" })],
  ];
  const authed: [string, string, THandler, string?][] = [
    ["GET", "/api/auth/me", me as THandler],
    ["POST", q, query as THandler],
    ["POST", e, enhance as THandler],
    ["GET", "/api/retrieval/facets", facets as THandler],
    ["GET", "/api/resources", list as THandler],
    ["POST", "/api/resources", upload as THandler],
    ["GET", "/api/tokens", listTokens as THandler],
    ["GET", "/api/resources/ID", getResource as THandler, "ID"],
    ["DELETE", "/api/resources/ID", del as THandler, "ID"],
    ["GET", "/api/resources/ID/chunks", chunks as THandler, "ID"],
    ["GET", "/api/resources/ID/file", file as THandler, "ID"],
    ["GET", "/api/papers", listPapers as THandler],
    ["GET", "/api/papers/ID", getPaper as THandler, "ID"],
    ["GET", "/api/papers/ID/export?format=pdf", exportPaper as THandler, "ID"],
    ["GET", "/api/questions", searchQuestions as THandler],
  ];
  for (const [label, headers] of authVariants) {
    for (const [method, url, handler, id] of authed) {
      cases.push({
        name: `${label} ${method} ${url}`,
        handler,
        id: id ? "RESOURCE" : undefined,
        request: async () =>
          makeRequest(method, url.replace("ID", privateId), {
            headers: await headers(),
            ...(method === "POST" && url !== "/api/resources"
              ? { json: { filters: FILTERS, query: "osmosis", rawQuery: "osmosis" } }
              : {}),
          }),
        expect: [401],
      });
    }
  }
  // Another user's ids, bad ids and traversal attempts.
  for (const id of [
    "PRIVATE",
    "00000000-0000-0000-0000-000000000000",
    "not-a-uuid",
    "../../etc/passwd",
    "%2e%2e%2f",
    "' or 1=1",
    "1".repeat(5000),
  ]) {
    for (const [method, handler] of [
      ["GET", getResource],
      ["DELETE", del],
      ["GET", chunks],
      ["GET", file],
      ["POST", retry],
    ] as const) {
      cases.push({
        name: `other teacher ${method} resource ${id.slice(0, 20)}`,
        handler: handler as THandler,
        id,
        request: () => makeRequest(method, "/api/resources/x", { token: env.otherTeacher.token }),
        expect: [400, 404],
      });
    }
  }
  cases.push({
    name: "revoke someone else's token id",
    handler: revokeToken as THandler,
    id: "00000000-0000-0000-0000-000000000000",
    request: () => makeRequest("DELETE", "/api/tokens/x", { token: env.teacher.token }),
    expect: [404],
  });
  cases.push({
    name: "revoke bad token id",
    handler: revokeToken as THandler,
    id: "../x",
    request: () => makeRequest("DELETE", "/api/tokens/x", { token: env.teacher.token }),
    expect: [400],
  });
  // Account management (issue 27): wrong callers, missing choices, injected ids, self and last admin.
  const teacherId = () => env.teacher.id;
  const NOBODY = "00000000-0000-4000-8000-000000000000";
  const adminCall = (method: string, url: string, json?: unknown) => () =>
    makeRequest(method, url, { token: env.admin.token, ...(json === undefined ? {} : { json }) });
  const userCases: [string, THandler, () => string, () => Request, number[]][] = [
    [
      "teacher disables a user",
      updateUser as THandler,
      teacherId,
      () => makeRequest("PATCH", "/api/users/x", { token: env.teacher.token, json: { disabled: true } }),
      [403],
    ],
    [
      "teacher deletes a user",
      deleteUser as THandler,
      teacherId,
      () => makeRequest("DELETE", "/api/users/x?privateData=delete", { token: env.teacher.token }),
      [403],
    ],
    [
      "delete without a choice",
      deleteUser as THandler,
      teacherId,
      adminCall("DELETE", "/api/users/x"),
      [400],
    ],
    [
      "delete keep",
      deleteUser as THandler,
      teacherId,
      adminCall("DELETE", "/api/users/x?privateData=keep"),
      [400],
    ],
    [
      "transfer to nobody",
      deleteUser as THandler,
      teacherId,
      adminCall("DELETE", "/api/users/x?privateData=transfer"),
      [400],
    ],
    [
      "transfer to injection",
      deleteUser as THandler,
      teacherId,
      adminCall("DELETE", "/api/users/x?privateData=transfer&to=%27%20or%201%3D1%20--"),
      [400],
    ],
    [
      "transfer to unknown",
      deleteUser as THandler,
      teacherId,
      adminCall("DELETE", `/api/users/x?privateData=transfer&to=${NOBODY}`),
      [400],
    ],
    [
      "transfer to itself",
      deleteUser as THandler,
      teacherId,
      () =>
        makeRequest("DELETE", `/api/users/x?privateData=transfer&to=${env.teacher.id}`, {
          token: env.admin.token,
        }),
      [400],
    ],
    [
      "delete yourself",
      deleteUser as THandler,
      () => env.admin.id,
      adminCall("DELETE", "/api/users/x?privateData=delete"),
      [409],
    ],
    [
      "delete unknown",
      deleteUser as THandler,
      () => NOBODY,
      adminCall("DELETE", "/api/users/x?privateData=delete"),
      [404],
    ],
    [
      "delete bad id",
      deleteUser as THandler,
      () => "../x",
      adminCall("DELETE", "/api/users/x?privateData=delete"),
      [400],
    ],
    [
      "disable yourself",
      updateUser as THandler,
      () => env.admin.id,
      adminCall("PATCH", "/api/users/x", { disabled: true }),
      [409],
    ],
    [
      "disable as a string",
      updateUser as THandler,
      teacherId,
      adminCall("PATCH", "/api/users/x", { disabled: "true" }),
      [400],
    ],
    ["patch nothing", updateUser as THandler, teacherId, adminCall("PATCH", "/api/users/x", {}), [400]],
    [
      "patch extra field",
      updateUser as THandler,
      teacherId,
      adminCall("PATCH", "/api/users/x", { disabled: true, password_hash: "x" }),
      [400],
    ],
    [
      "disable unknown",
      updateUser as THandler,
      () => NOBODY,
      adminCall("PATCH", "/api/users/x", { disabled: true }),
      [404],
    ],
    [
      "tokens of unknown",
      listUserTokens as THandler,
      () => NOBODY,
      adminCall("GET", "/api/users/x/tokens"),
      [404],
    ],
    [
      "tokens bad id",
      listUserTokens as THandler,
      () => "' or 1=1 --",
      adminCall("GET", "/api/users/x/tokens"),
      [400],
    ],
    [
      "teacher lists tokens",
      listUserTokens as THandler,
      () => env.admin.id,
      () => makeRequest("GET", "/api/users/x/tokens", { token: env.teacher.token }),
      [403],
    ],
  ];
  for (const [name, handler, id, request, expected] of userCases) {
    cases.push({
      name: `users: ${name}`,
      handler: (req) => handler(req, params({ id: id() })),
      request,
      expect: expected,
    });
  }
  for (const [name, tokenId, expected] of [
    ["another user's token", NOBODY, [404]],
    ["a bad token id", "../../x", [400]],
  ] as const) {
    cases.push({
      name: `users: revoke ${name}`,
      handler: (req) => revokeUserToken(req, params({ id: env.teacher.id, tokenId })),
      request: adminCall("DELETE", "/api/users/x/tokens/y"),
      expect: [...expected],
    });
  }
  // Uploads that lie about their type, are empty, corrupt, encrypted or bombs.
  const uploads: [string, () => Promise<Uint8Array> | Uint8Array, string, number[]][] = [
    ["png as pdf", () => PNG_BYTES, "a.pdf", [415]],
    ["random as docx", () => randomBytes(4096), "a.docx", [415]],
    ["empty", () => new Uint8Array(0), "a.md", [400]],
    ["exe", () => new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]), "a.txt", [415]],
    [
      "zip without document.xml",
      () => makeZip([{ name: "x.txt", data: new TextEncoder().encode("hello") }]),
      "a.docx",
      [415, 422],
    ],
    [
      "zip bomb renamed docx",
      () => makeZip([{ name: "word/document.xml", data: new Uint8Array(20 * 1024 * 1024), deflate: true }]),
      "bomb.docx",
      [413, 422],
    ],
    ["binary with NULs as md", () => new Uint8Array([35, 32, 65, 0, 0, 0, 66]), "a.md", [415]],
    ["oversized", () => new Uint8Array(2 * 1024 * 1024).fill(65), "big.txt", [413]],
  ];
  for (const [label, bytes, name, codes] of uploads) {
    for (const token of ["admin", "teacher"] as const) {
      cases.push({
        name: `upload ${label} as ${token}`,
        handler: upload as THandler,
        request: async () => {
          const f = new FormData();
          for (const [k, v] of Object.entries({
            ...FILTERS,
            visibility: token === "admin" ? "shared" : "private",
          }))
            f.set(k, v);
          f.append("file", new Blob([(await bytes()) as BlobPart]), name);
          return makeRequest("POST", "/api/resources", { token: env[token].token, body: f });
        },
        expect: codes,
      });
    }
  }
  cases.push({
    name: "teacher publishes shared",
    handler: upload as THandler,
    request: async () => {
      const f = new FormData();
      for (const [k, v] of Object.entries(FILTERS)) f.set(k, v);
      f.append("file", new Blob([(await makeDocx([{ paragraph: "Hello" }])) as BlobPart]), "a.docx");
      return makeRequest("POST", "/api/resources", { token: env.teacher.token, body: f });
    },
    expect: [403],
  });
  for (const fields of [
    {},
    { board: "" },
    { ...FILTERS, resourceType: "poster" },
    { ...FILTERS, chapterNumber: "-3" },
    { ...FILTERS, visibility: "public" },
    { ...FILTERS, board: "x".repeat(81) },
  ]) {
    cases.push({
      name: `upload metadata ${JSON.stringify(fields).slice(0, 40)}`,
      handler: upload as THandler,
      request: () => {
        const f = new FormData();
        for (const [k, v] of Object.entries(fields)) f.set(k, String(v));
        f.append("file", new Blob([new TextEncoder().encode("# A\n\nb")]), "a.md");
        return makeRequest("POST", "/api/resources", { token: env.admin.token, body: f });
      },
      expect: [400],
    });
  }
  cases.push({
    name: "upload not multipart",
    handler: upload as THandler,
    request: raw("/api/resources", "{}", "application/json", undefined),
    expect: [415],
  });
  cases.push({
    name: "upload broken multipart",
    handler: upload as THandler,
    request: raw(
      "/api/resources",
      '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n',
      "multipart/form-data; boundary=x",
    ),
    expect: [400],
  });
  cases.push({
    name: "scanned pdf",
    handler: upload as THandler,
    request: async () => {
      const f = new FormData();
      for (const [k, v] of Object.entries(FILTERS)) f.set(k, v);
      f.append("file", new Blob([(await makeImageOnlyPdf(2)) as BlobPart]), "scan.pdf");
      return makeRequest("POST", "/api/resources", { token: env.admin.token, body: f });
    },
    expect: [202],
  });
  for (const qs of [
    "limit=0",
    "limit=abc",
    "offset=-1",
    "status=deleted",
    "resourceType=poster",
    "unknown=1",
    `q=${"%".repeat(300)}`,
  ]) {
    cases.push({
      name: `list ?${qs}`,
      handler: list as THandler,
      request: () => makeRequest("GET", `/api/resources?${qs}`, { token: env.teacher.token }),
      expect: [400],
    });
  }
  // Papers: someone else's paper, bad ids, hostile bodies, unknown export formats.
  for (const id of ["PAPER", "00000000-0000-0000-0000-000000000000", "not-a-uuid", "../../etc/passwd"]) {
    for (const [method, handler, body] of [
      ["GET", getPaper, undefined],
      ["PUT", putPaper, "PAPER_BODY"],
      ["DELETE", deletePaper, undefined],
      ["GET", pyqCheck, undefined],
      ["GET", exportPaper, undefined],
      ["POST", addItems, { questionIds: ["00000000-0000-0000-0000-000000000000"] }],
    ] as const) {
      cases.push({
        name: `other teacher ${method} paper ${id.slice(0, 20)} via ${handler.name || method}`,
        handler: handler as THandler,
        id,
        request: () =>
          makeRequest(method, "/api/papers/x?format=pdf", {
            token: env.otherTeacher.token,
            ...(body ? { json: body === "PAPER_BODY" ? paperBody : body } : {}),
          }),
        expect: [400, 404],
      });
    }
  }
  for (const field of [
    "title",
    "board",
    "totalMarks",
    "durationMinutes",
    "sections",
    "instructions",
    "version",
    "blueprint",
  ]) {
    for (const v of [...HOSTILE_VALUES, "\u0000", "x".repeat(5000)]) {
      // Skip the values that are valid for the field (a title of "8", no instructions, no blueprint).
      const valid =
        (field === "blueprint" &&
          (v === null ||
            (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0))) ||
        (["title", "board"].includes(field) && v === "8") ||
        (["sections", "instructions"].includes(field) && Array.isArray(v) && v.length === 0);
      if (valid) continue;
      cases.push({
        name: `PUT paper ${field}=${JSON.stringify(v).slice(0, 20)}`,
        handler: putPaper as THandler,
        id: "PAPER",
        request: () =>
          makeRequest("PUT", "/api/papers/x", {
            token: env.teacher.token,
            json: { ...paperBody, [field]: v },
          }),
        expect: [400],
      });
    }
  }
  for (const format of ["exe", "", "PDF", "../pdf", "pdf;rm -rf", "%00"]) {
    cases.push({
      name: `export format ${format}`,
      handler: exportPaper as THandler,
      id: "PAPER",
      request: () =>
        makeRequest("GET", `/api/papers/x?format=${encodeURIComponent(format)}`, {
          token: env.teacher.token,
        }),
      expect: [400],
    });
  }
  for (const v of [
    ...HOSTILE_VALUES,
    { template: "board-80" },
    { template: "nope", title: "t", ...FILTERS },
  ]) {
    cases.push({
      name: `create paper ${JSON.stringify(v).slice(0, 30)}`,
      handler: createPaperRoute as THandler,
      request: json("/api/papers", v),
      expect: [400],
    });
  }
  cases.push({
    name: "create paper with a NUL in the title is a 400 naming the field, not a 500",
    handler: createPaperRoute as THandler,
    request: json("/api/papers", { title: "\u202eTest\u0000 paper", ...FILTERS }),
    expect: [400],
  });
  cases.push({
    name: "create paper with RTL controls in the title is cleaned",
    handler: createPaperRoute as THandler,
    request: json("/api/papers", { title: "\u202eTest paper", ...FILTERS }),
    expect: [201],
  });
  for (const qs of [
    "type=essay",
    "bloomLevel=Memorise",
    "limit=0",
    "limit=1000",
    "unknown=1",
    `q=${"x".repeat(500)}`,
  ]) {
    cases.push({
      name: `questions ?${qs}`,
      handler: searchQuestions as THandler,
      request: () => makeRequest("GET", `/api/questions?${qs}`, { token: env.teacher.token }),
      expect: [400],
    });
  }
  cases.push(...brokenStringCases(), ...crossSiteCases(), ...scopeLessCases());
  return cases;
}

/** NUL bytes and lone UTF-16 surrogates wherever a string enters: each a 400 naming the field. */
function brokenStringCases(): ICase[] {
  const cases: ICase[] = [];
  const ZERO = "00000000-0000-4000-8000-000000000000";
  for (const s of ["a\u0000b", "\u0000", "x \ud800 y", "\udc00 lone low", "pair reversed \udc00\ud800"]) {
    const label = JSON.stringify(s);
    const nulOnly = s.includes("\u0000");
    if (nulOnly) {
      // A lone surrogate cannot be put in a URL or a multipart name (both are UTF-8); a NUL can.
      for (const [url, handler] of [
        ["/api/questions?q=", searchQuestions],
        ["/api/questions?chapter=", searchQuestions],
        ["/api/resources?q=", list],
        ["/api/resources?board=", list],
      ] as const) {
        cases.push({
          name: `${url} ${label}`,
          handler: handler as THandler,
          request: () => makeRequest("GET", `${url}${encodeURIComponent(s)}`, { token: env.teacher.token }),
          expect: [400],
        });
      }
      for (const field of ["filename", "title", "chapterName", "board"]) {
        cases.push({
          name: `upload ${field} ${label}`,
          handler: upload as THandler,
          request: () => {
            const f = new FormData();
            for (const [k, v] of Object.entries({ ...FILTERS, visibility: "private" })) f.set(k, v);
            if (field !== "filename") f.set(field, `Chapter ${s}`);
            f.append(
              "file",
              new Blob(["# Notes\n\nText."]),
              field === "filename" ? `notes${s}.md` : "notes.md",
            );
            return makeRequest("POST", "/api/resources", { token: env.teacher.token, body: f });
          },
          expect: [400],
        });
      }
    }
    cases.push(
      {
        name: `token name ${label}`,
        handler: createToken as THandler,
        request: json("/api/tokens", { name: `lms ${s}`, scopes: ["retrieval:read"] }),
        expect: [400],
      },
      {
        name: `question prompt ${label}`,
        handler: patchQuestion as THandler,
        id: ZERO,
        request: () =>
          makeRequest("PATCH", "/api/questions/x", {
            token: env.teacher.token,
            json: { promptText: `What is a cell? ${s}` },
          }),
        expect: [400],
      },
      {
        name: `paper instructions ${label}`,
        handler: putPaper as THandler,
        id: "PAPER",
        request: () =>
          makeRequest("PUT", "/api/papers/x", {
            token: env.teacher.token,
            json: { ...paperBody, instructions: [`All questions are compulsory ${s}`] },
          }),
        expect: [400],
      },
      {
        name: `new paper title ${label}`,
        handler: createPaperRoute as THandler,
        request: json("/api/papers", { title: `Test ${s}`, ...FILTERS }),
        expect: [400],
      },
      {
        name: `generation avoidPrompts ${label}`,
        handler: generation as THandler,
        request: () =>
          makeRequest("POST", "/api/generation", {
            token: env.teacher.token,
            json: {
              filters: FILTERS,
              context: [{ documentId, chunkIndex: 1 }],
              blueprint: { items: [{ type: "short", count: 1 }] },
              avoidPrompts: ["What is light?", `Name the pigment ${s}`],
            },
          }),
        expect: [400],
      },
      {
        name: `a JSON key ${label}`,
        handler: query as THandler,
        request: json("/api/retrieval/query", { filters: FILTERS, query: "cell", [`k${s}`]: 1 }),
        expect: [400],
      },
    );
  }
  return cases;
}

/** Writes riding on the session cookie from another site (or a frame on one): 403. */
function crossSiteCases(): ICase[] {
  const headers = () => ({ cookie: `pw_session=${env.teacher.token}`, origin: "https://evil.example" });
  const cases: ICase[] = [];
  const form = () => {
    const f = new FormData();
    for (const [k, v] of Object.entries({ ...FILTERS, visibility: "private" })) f.set(k, v);
    f.append("file", new Blob(["# Notes\n\nText."]), "notes.md");
    return f;
  };
  for (const [name, handler, id, req] of [
    [
      "multipart upload",
      upload,
      undefined,
      () => makeRequest("POST", "/api/resources", { body: form(), headers: headers() }),
    ],
    [
      "form-encoded retry",
      retry,
      "RESOURCE",
      () =>
        makeRequest("POST", "/api/resources/x/retry", {
          body: "a=1",
          headers: { ...headers(), "content-type": "application/x-www-form-urlencoded" },
        }),
    ],
    [
      "delete resource",
      del,
      "RESOURCE",
      () => makeRequest("DELETE", "/api/resources/x", { headers: headers() }),
    ],
    [
      "new paper",
      createPaperRoute,
      undefined,
      () => makeRequest("POST", "/api/papers", { json: { title: "t", ...FILTERS }, headers: headers() }),
    ],
    [
      "save paper",
      putPaper,
      "PAPER",
      () => makeRequest("PUT", "/api/papers/x", { json: paperBody, headers: headers() }),
    ],
    [
      "delete paper",
      deletePaper,
      "PAPER",
      () => makeRequest("DELETE", "/api/papers/x", { headers: headers() }),
    ],
    [
      "mint a token",
      createToken,
      undefined,
      () =>
        makeRequest("POST", "/api/tokens", {
          json: { name: "x", scopes: ["retrieval:read"] },
          headers: headers(),
        }),
    ],
    [
      "frame without Origin",
      createPaperRoute,
      undefined,
      () =>
        makeRequest("POST", "/api/papers", {
          json: { title: "t", ...FILTERS },
          headers: { cookie: `pw_session=${env.teacher.token}`, "sec-fetch-site": "cross-site" },
        }),
    ],
  ] as const) {
    cases.push({ name: `cross-site ${name}`, handler: handler as THandler, id, request: req, expect: [403] });
  }
  return cases;
}

/** API tokens read only what their scopes name. */
function scopeLessCases(): ICase[] {
  const cases: ICase[] = [];
  for (const key of ["writeOnly", "retrievalOnly"] as const) {
    for (const [name, handler, id, url] of [
      ["papers", listPapers, undefined, "/api/papers"],
      ["a paper", getPaper, "PAPER", "/api/papers/x"],
      ["the answer key", exportPaper, "PAPER", "/api/papers/x/export?format=md&part=answer-key"],
      ["PYQ check", pyqCheck, "PAPER", "/api/papers/x/pyq-check"],
      ["questions", searchQuestions, undefined, "/api/questions"],
      ["a set", getSet, "00000000-0000-4000-8000-000000000000", "/api/question-sets/x"],
    ] as const) {
      cases.push({
        name: `${key} token reads ${name}`,
        handler: handler as THandler,
        id,
        request: () => makeRequest("GET", url, { token: scoped[key] }),
        expect: [403],
      });
    }
  }
  return cases;
}

describe("hostile input", () => {
  it("answers ≥ 200 hostile requests with clear 4xx errors, no 500s, no stack traces, no data leaks", async () => {
    const cases = buildCases();
    expect(cases.length).toBeGreaterThanOrEqual(200);
    const failures: string[] = [];
    let fiveHundreds = 0;
    for (const c of cases) {
      const before = await dbSnapshot(env.db);
      const id = c.id === "PRIVATE" || c.id === "RESOURCE" ? privateId : c.id === "PAPER" ? paperId : c.id;
      const res = await c.handler(await c.request(), params({ id: id ?? "" }));
      const text = await res.text();
      if (res.status >= 500) fiveHundreds++;
      const allowed = c.expect ?? [400, 401, 403, 404, 409, 413, 415, 422];
      if (!allowed.includes(res.status)) failures.push(`${c.name}: ${res.status} ${text.slice(0, 160)}`);
      if (STACK_TRACE.test(text)) failures.push(`${c.name}: stack trace leaked`);
      if (res.status >= 400) {
        const body = JSON.parse(text) as { ok: boolean; error: { message: string } };
        if (body.ok !== false || !body.error.message)
          failures.push(`${c.name}: unreadable error ${text.slice(0, 100)}`);
        const after = await dbSnapshot(env.db);
        if (after !== before) failures.push(`${c.name}: database changed ${before} → ${after}`);
      }
      if (
        res.status === 200 &&
        text.includes("Structure and Function of Plasma Membranes") &&
        c.name.startsWith("other teacher")
      ) {
        failures.push(`${c.name}: cross-user read`);
      }
    }
    expect(fiveHundreds).toBe(0);
    expect(failures).toEqual([]);
  }, 300_000);
});
