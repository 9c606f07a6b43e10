import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A file path named in the code (comments, messages: `lib/http/route.ts`, `eval/scripts/…`) names
 * a file that exists, so a reader following it lands somewhere. Only repository paths with an
 * extension are checked; Markdown links are checked by doc-links.test.ts.
 */
const ROOT = path.resolve(__dirname, "../..");
const TOP = [
  "app",
  "components",
  "contracts",
  "eval",
  "hooks",
  "lib",
  "schema",
  "scripts",
  "services",
  "supabase",
  "tests",
  "types",
];
const SKIP = new Set(["node_modules", ".next", ".data", ".bench", "test-results", "fixtures"]);
const PATH_RE = new RegExp(
  `(?<![\\w./@-])((?:${TOP.join("|")}|docs)/[\\w./\\[\\]()-]*?\\.(?:tsx?|mjs|sh|sql|md|jsonl?))(?![\\w-])`,
  "g",
);

function codeFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) codeFiles(rel, out);
    else if (/\.(tsx?|mjs|sh|sql)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

function missingPaths(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return [...text.matchAll(PATH_RE)]
    .map((m) => m[1] ?? "")
    .filter((p) => !existsSync(path.join(ROOT, p)))
    .map((p) => `${file}: ${p}`);
}

describe("file paths named in the code", () => {
  it("recognises a repository path", () => {
    expect("see lib/http/route.ts)".match(PATH_RE)).toEqual(["lib/http/route.ts"]);
    expect("@/lib/http/route".match(PATH_RE)).toBeNull();
  });

  it("name files that exist", () => {
    const files = TOP.flatMap((dir) => codeFiles(dir));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(missingPaths)).toEqual([]);
  });
});
