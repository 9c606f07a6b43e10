import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * schema/ and types/ import each other (types/ infers API shapes from the zod schemas; schema/ is
 * built from the shared value lists): no file may reach itself through those imports, type-only
 * imports included. The shared lists live in schema/enums.schema.ts for that reason.
 */
const ROOT = path.resolve(__dirname, "../..");
const FOLDERS = ["schema", "types"];

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of FOLDERS) {
    for (const name of readdirSync(path.join(ROOT, folder)).filter((f) => f.endsWith(".ts"))) {
      const file = `${folder}/${name.replace(/\.ts$/, "")}`;
      const source = readFileSync(path.join(ROOT, folder, name), "utf8");
      const targets = [...source.matchAll(/from "(@\/|\.\/)([^"]+)"/g)].map(([, prefix, target]) =>
        prefix === "@/" ? target : `${folder}/${target}`,
      );
      graph.set(file, targets.filter((t) => FOLDERS.some((f) => t?.startsWith(`${f}/`))) as string[]);
    }
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const visit = (file: string, trail: string[]) => {
    for (const next of graph.get(file) ?? []) {
      const at = trail.indexOf(next);
      if (at >= 0) found.push([...trail.slice(at), next]);
      else if (trail.length < graph.size) visit(next, [...trail, next]);
    }
  };
  for (const file of graph.keys()) visit(file, [file]);
  return found;
}

describe("schema/ and types/ imports", () => {
  it("finds a circle when there is one", () => {
    const graph = new Map([
      ["schema/a.schema", ["types/a.types"]],
      ["types/a.types", ["schema/a.schema"]],
    ]);
    expect(cycles(graph)).toContainEqual(["schema/a.schema", "types/a.types", "schema/a.schema"]);
  });

  it("has no import circle", () => {
    const graph = importGraph();
    expect(graph.get("types/generation.types")).toContain("schema/enums.schema");
    expect(cycles(graph)).toEqual([]);
  });
});
