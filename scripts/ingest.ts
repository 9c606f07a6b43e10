/**
 * npm run ingest -- [--board B --grade G --subject S --type textbook|pyq|notes|other
 *   --chapter N --chapter-name NAME --visibility shared|private --title T]
 *   [--url http://localhost:3000 --token <token>] <files or folders…>
 *
 * Without --url it opens the embedded database directly (the server must not be running on the
 * same data directory); with --url it uploads through the resource API and polls progress.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { MultiBar, Presets, SingleBar } from "cli-progress";
import { Command } from "commander";
import { planFiles } from "@/lib/ingestion/manifest";
import { runCli } from "./support/cli";

const program = new Command()
  .name("ingest")
  .argument("<paths...>", "files (PDF, DOCX, Markdown, text) or folders (a manifest.json is honoured)")
  .option("--board <board>")
  .option("--grade <grade>")
  .option("--subject <subject>")
  .option("--type <type>", "textbook | pyq | notes | other", "textbook")
  .option("--chapter <n>", "chapter number")
  .option("--chapter-name <name>")
  .option("--visibility <v>", "shared | private", "shared")
  .option("--title <title>")
  .option("--as <email>", "owner account (embedded mode; default: the first admin)")
  .option("--url <url>", "ingest through a running Paperwise server")
  .option("--token <token>", "bearer token for --url (or PAPERWISE_TOKEN)")
  .parse();

const opts = program.opts<{
  board?: string;
  grade?: string;
  subject?: string;
  type: string;
  chapter?: string;
  chapterName?: string;
  visibility: string;
  title?: string;
  as?: string;
  url?: string;
  token?: string;
}>();

const defaults = Object.fromEntries(
  Object.entries({
    board: opts.board,
    grade: opts.grade,
    subject: opts.subject,
    resourceType: opts.type,
    chapterNumber: opts.chapter,
    chapterName: opts.chapterName,
    visibility: opts.visibility,
    title: opts.title,
  }).filter(([, v]) => v !== undefined),
);

/** Without a terminal (CI, pipes) the bar cannot redraw: print one line per stage change instead. */
const plain = !process.stderr.isTTY;
const lastStage = new Map<string, string>();
function plainProgress(file: string, stage: string, done: number, total: number): void {
  if (!plain || lastStage.get(file) === stage) return;
  lastStage.set(file, stage);
  console.log(`${file}: ${stage}${stage === "embedding" ? ` ${done}/${total}` : ""}`);
}

function bar(): SingleBar {
  return new SingleBar(
    {
      format: " {bar} {percentage}% | {stage} | {value}/{total} chunks | {file}",
      hideCursor: true,
      clearOnComplete: false,
    },
    Presets.shades_classic,
  );
}

async function viaServer(baseUrl: string, token: string | undefined): Promise<number> {
  if (!token) throw new Error("--url needs --token (create one with `npm run token` or in Settings → API)");
  const planned = await planFiles(program.args);
  let failed = 0;
  for (const item of planned) {
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...defaults, ...item.metadata }))
      if (v !== undefined) form.set(k, String(v));
    form.set("file", new Blob([await readFile(item.file)]), path.basename(item.file));
    const res = await fetch(new URL("/api/resources", baseUrl), {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await res.json()) as {
      ok: boolean;
      ingestions?: { id: string; duplicate: boolean }[];
      error?: { message: string; details?: { path: string; message: string }[] };
    };
    if (!body.ok || !body.ingestions) {
      failed++;
      console.error(
        `✗ ${item.file}: ${body.error?.message ?? res.status} ${JSON.stringify(body.error?.details ?? "")}`,
      );
      continue;
    }
    for (const ing of body.ingestions) {
      if (ing.duplicate) {
        console.log(`= ${item.file}: already ingested (${ing.id})`);
        continue;
      }
      const b = bar();
      b.start(1, 0, { stage: "queued", file: path.basename(item.file) });
      for (;;) {
        await new Promise((r) => setTimeout(r, 400));
        const s = (await (
          await fetch(new URL(`/api/resources/${ing.id}`, baseUrl), {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as {
          ingestion: { status: string; progressDone: number; progressTotal: number; error: string | null };
        };
        b.setTotal(Math.max(1, s.ingestion.progressTotal));
        b.update(s.ingestion.progressDone, { stage: s.ingestion.status });
        if (s.ingestion.status === "ready" || s.ingestion.status === "failed") {
          b.stop();
          if (s.ingestion.status === "failed") {
            failed++;
            console.error(`✗ ${item.file}: ${s.ingestion.error}`);
          }
          break;
        }
      }
    }
  }
  return failed;
}

async function embedded(): Promise<number> {
  const [{ getConfig }, { getDb }, { getEmbedder }, { getStorage }, { ingestFiles }, { registerStartTasks }] =
    await Promise.all([
      import("@/lib/config/env"),
      import("@/lib/db"),
      import("@/lib/ai/embedder"),
      import("@/lib/storage"),
      import("@/lib/ingestion/ingest-files"),
      import("@/lib/start"),
    ]);
  // Like a server start: an empty embedded database gets the demo accounts first.
  registerStartTasks();
  const db = await getDb();
  const [owner] = await db.query<{ id: string }>(
    opts.as
      ? "select id from profiles where email = $1"
      : "select id from profiles where role = 'admin' order by created_at limit 1",
    opts.as ? [opts.as.toLowerCase()] : [],
  );
  if (!owner) {
    throw new Error(
      opts.as
        ? `No account ${opts.as}`
        : "No admin account; create one first: npm run users -- add --email <email> --role admin",
    );
  }
  // PostgreSQL stores one file while this process embeds the next: two files in flight, a bar each.
  const bars = plain
    ? null
    : new MultiBar(
        {
          format: " {bar} {percentage}% | {stage} | {value}/{total} chunks | {file}",
          hideCursor: true,
          clearOnComplete: false,
        },
        Presets.shades_classic,
      );
  const labels = new Map<string, { label: string; bar: SingleBar | null }>();
  const started = Date.now();
  const results = await ingestFiles(db, getStorage(), getEmbedder(), {
    userId: owner.id,
    inputs: program.args,
    defaults,
    maxBytes: getConfig().maxUploadBytes,
    concurrency: db.kind === "postgres" ? 2 : 1,
    onFileStart: (file, i, total) => {
      const label = `${i + 1}/${total} ${path.basename(file)}`;
      labels.set(file, { label, bar: bars?.create(1, 0, { stage: "queued", file: label }) ?? null });
    },
    onProgress: (e, file) => {
      const entry = labels.get(file);
      if (!entry) return;
      plainProgress(entry.label, e.status, e.done, e.total);
      entry.bar?.setTotal(Math.max(1, e.total));
      entry.bar?.update(e.done, { stage: e.status, file: entry.label });
    },
  });
  bars?.stop();
  let chunks = 0;
  for (const r of results) {
    if (r.error) console.error(`✗ ${r.file}: ${r.error}`);
    else if (r.duplicate) console.log(`= ${r.file}: already ingested`);
    chunks += r.ingestion?.chunk_count ?? 0;
  }
  const failed = results.filter((r) => r.error).length;
  console.log(
    `${results.length - failed} of ${results.length} files ready, ${chunks} chunks, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return failed;
}

await runCli(
  "ingest",
  async () => {
    const token = opts.token ?? process.env.PAPERWISE_TOKEN;
    const failed = opts.url ? await viaServer(opts.url, token) : await embedded();
    return failed > 0 ? 1 : 0;
  },
  { whileServerRuns: "send the files through it: --url http://localhost:3000 --token <token>" },
);
