import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, describe, expect, it } from "vitest";
import { CONTRACTS } from "@/contracts";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { PaperUpdateSchema } from "@/schema/paper.schema";
import { RetrievalQueryRequestSchema } from "@/schema/retrieval.schema";

type TSchema = Record<string, unknown>;
type TOperation = {
  security?: unknown[];
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; schema: TSchema }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, unknown> }>;
};
const doc = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, TOperation>>;
  components: { schemas: Record<string, TSchema> };
};
const operations = Object.entries(doc.paths).flatMap(([p, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })),
);
const dir = mkdtempSync(path.join(tmpdir(), "paperwise-openapi-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the OpenAPI document", () => {
  it("passes @redocly/cli lint with 0 errors (the CLI, on the document written to a file)", () => {
    const file = path.join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc));
    let out: string;
    try {
      out = execFileSync(
        path.join(process.cwd(), "node_modules/.bin/redocly"),
        ["lint", file, "--format", "json"],
        {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
          // No network: no telemetry, no update check.
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
          timeout: 60_000,
        },
      );
    } catch (err) {
      // A non-zero exit means errors; its stdout still holds the report.
      out = String((err as { stdout?: string }).stdout ?? err);
    }
    const report = JSON.parse(out.slice(out.indexOf("{"))) as {
      totals: { errors: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    const errors = report.problems.filter((p) => p.severity === "error");
    expect(errors.map((e) => `${e.ruleId}: ${e.message}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it("gives path ids a flag-free pattern that real UUIDs (either case) match", () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    let ids = 0;
    for (const { key, op } of operations) {
      for (const param of op.parameters ?? []) {
        if (param.in !== "path" || !param.schema.pattern) continue;
        ids++;
        const pattern = String(param.schema.pattern);
        expect(pattern, key).not.toMatch(/\/[a-z]*$/);
        const validate = ajv.compile(param.schema);
        expect(validate("6f1c2e4a-1b2c-4d3e-8f40-123456789abc"), key).toBe(true);
        expect(validate("6F1C2E4A-1B2C-4D3E-8F40-123456789ABC"), key).toBe(true);
        expect(validate("not-a-uuid"), key).toBe(false);
      }
    }
    expect(ids).toBeGreaterThanOrEqual(17);
  });

  it("says `security: []` on public operations and bearer auth on every other one", () => {
    for (const c of CONTRACTS) {
      const op = doc.paths[c.path]![c.method.toLowerCase()]!;
      if (c.auth.kind === "public") expect(op.security, c.name).toEqual([]);
      else expect(op.security, c.name).toEqual([{ bearerAuth: [] }]);
      expect(op.description, c.name).toBeTruthy();
    }
  });

  it("documents 413 and 415 wherever a body is read, and real file types for files", () => {
    for (const c of CONTRACTS) {
      const op = doc.paths[c.path]![c.method.toLowerCase()]!;
      if (c.body) expect(Object.keys(op.responses), c.name).toEqual(expect.arrayContaining(["413", "415"]));
      if (c.response === "binary") {
        const types = Object.keys(op.responses["200"]!.content ?? {});
        expect(types, c.name).not.toContain("application/octet-stream");
        expect(types.length, c.name).toBeGreaterThan(0);
      }
    }
    const exportTypes = Object.keys(doc.paths["/api/papers/{id}/export"]!.get!.responses["200"]!.content!);
    expect(exportTypes).toEqual(
      expect.arrayContaining(["application/pdf", "text/markdown", "application/xml"]),
    );
  });

  it("gives request examples that the server's own schemas accept", () => {
    const withExamples = CONTRACTS.filter(
      (c) => c.example !== undefined && c.body && c.bodyKind !== "multipart",
    );
    expect(withExamples.length).toBeGreaterThanOrEqual(8);
    for (const c of withExamples) {
      const parsed = c.body!.safeParse(c.example);
      expect(parsed.success, `${c.name}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it("names its main schemas, and the stream's events and end", () => {
    for (const name of [
      "Paper",
      "PaperInput",
      "Question",
      "QuestionSet",
      "Passage",
      "Error",
      "GenerationStreamEvent",
      "GenerationQuestionPart",
    ]) {
      expect(doc.components.schemas[name], name).toBeDefined();
      expect(doc.components.schemas[name]!.description, name).toBeTruthy();
    }
    const set = doc.components.schemas.QuestionSet as { properties: Record<string, unknown> };
    expect(Object.keys(set.properties)).toContain("createdAt");
    expect(Object.keys(set.properties)).not.toContain("created_at");
    const stream = doc.paths["/api/generation"]!.post!.responses["200"]!.content!["text/event-stream"] as {
      schema: { description: string };
      "x-event-schema": { $ref: string };
    };
    expect(stream.schema.description).toContain("data: [DONE]");
    expect(stream["x-event-schema"].$ref).toBe("#/components/schemas/GenerationStreamEvent");
  });

  it("allows no more than the server accepts: variants ≤ 300 characters, `chunk` required", () => {
    const variants = (
      doc.components.schemas.RetrievalQuery as {
        properties: { variants: { items: { maxLength: number } } };
      }
    ).properties.variants;
    expect(variants.items.maxLength).toBe(300);
    const request = {
      filters: { board: "OpenStax", grade: "11", subject: "Biology" },
      query: "osmosis",
    };
    expect(RetrievalQueryRequestSchema.safeParse({ ...request, variants: ["v".repeat(300)] }).success).toBe(
      true,
    );
    expect(RetrievalQueryRequestSchema.safeParse({ ...request, variants: ["v".repeat(301)] }).success).toBe(
      false,
    );
    const passage = doc.paths["/api/sources/{documentId}/passage"]!.get!.parameters!;
    expect(passage.find((p) => p.name === "chunk")).toMatchObject({
      required: true,
      schema: { type: "integer" },
    });
    expect(passage.find((p) => p.name === "around")).toMatchObject({
      required: false,
      schema: { default: 10 },
    });
  });
});

describe("PaperInput", () => {
  const paper = {
    id: "6f1c2e4a-1b2c-4d3e-8f40-123456789abc",
    title: "Cells",
    board: "OpenStax",
    grade: "11",
    subject: "Biology",
    durationMinutes: 60,
    totalMarks: 10,
    instructions: [],
    sections: [],
    version: 4,
    createdAt: "2026-11-20T09:30:00.000Z",
    updatedAt: "2026-11-21T09:30:00.000Z",
  };

  it("accepts a paper as GET returns it and drops the read-only fields", () => {
    const parsed = PaperUpdateSchema.parse(paper);
    expect(parsed).not.toHaveProperty("id");
    expect(parsed).not.toHaveProperty("createdAt");
    expect(parsed).not.toHaveProperty("updatedAt");
    expect(parsed.version).toBe(4);
  });

  it("still refuses unknown fields and blank text", () => {
    expect(PaperUpdateSchema.safeParse({ ...paper, owner: "x" }).success).toBe(false);
    const blank = PaperUpdateSchema.safeParse({ ...paper, title: "   " });
    expect(blank.success).toBe(false);
    expect(blank.error?.issues[0]?.path).toEqual(["title"]);
  });
});
