import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IDatabase } from "@/lib/db";
import { COLUMNS_SQL, type IColumnInfo, renderRowTypes } from "@/lib/db/row-types";
import { createTestDatabase } from "../support/test-db";

const ROWS_FILE = path.join(import.meta.dirname, "../../lib/db/rows.generated.ts");

let db: IDatabase;

beforeAll(async () => {
  db = (await createTestDatabase()).db;
});
afterAll(async () => {
  await db.close();
});

describe("row types generated from the migrations", () => {
  it("lib/db/rows.generated.ts matches the migrated schema (run `npm run db:types` after a migration)", async () => {
    const columns = await db.query<IColumnInfo>(COLUMNS_SQL);
    expect(columns.length).toBeGreaterThan(50);
    expect(await readFile(ROWS_FILE, "utf8")).toBe(renderRowTypes(columns));
  });

  it("renders nullability, arrays and driver types", () => {
    const col = (column_name: string, udt_name: string, is_nullable: "YES" | "NO", data_type = "x") => ({
      table_name: "t_x",
      column_name,
      data_type,
      udt_name,
      is_nullable,
    });
    const text = renderRowTypes([
      col("a", "int4", "NO"),
      col("b", "timestamptz", "YES"),
      col("c", "_text", "NO", "ARRAY"),
      col("d", "jsonb", "NO"),
      col("e", "int8", "NO"),
    ]);
    expect(text).toContain("export interface ITXTable {");
    expect(text).toContain("  a: number;\n  b: Date | string | null;\n  c: string[];\n  d: unknown;\n");
    expect(text).toContain("  e: number | bigint | string;");
  });
});
