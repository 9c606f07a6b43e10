/**
 * npm run db:types — regenerates lib/db/rows.generated.ts from the migrations: applies them to a
 * fresh in-memory PGlite and writes one interface per table from its columns.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { migrate } from "@/lib/db/migrate";
import { openPglite } from "@/lib/db/pglite";
import { COLUMNS_SQL, type IColumnInfo, renderRowTypes } from "@/lib/db/row-types";

export const ROWS_FILE = path.join(import.meta.dirname, "../lib/db/rows.generated.ts");

const db = await openPglite();
try {
  await migrate(db);
  const text = renderRowTypes(await db.query<IColumnInfo>(COLUMNS_SQL));
  await writeFile(ROWS_FILE, text);
  console.log(`wrote ${path.relative(process.cwd(), ROWS_FILE)}`);
} finally {
  await db.close();
}
