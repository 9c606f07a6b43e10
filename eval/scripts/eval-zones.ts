/**
 * npm run eval:zones -- [--labels eval/zones/labels.jsonl] [--corpus ../shared/eval/corpus] [--json]
 *                       [--dump-pdf file.txt]
 *
 * Precision and recall per zone of the ingestion's zone classifier (lib/ingestion/zones.ts) on a
 * hand-labelled sample (eval/zones/README.md): sentences and paragraphs of both OpenStax books as
 * Markdown, and of a PDF made here from a corpus chapter (laid out as plain lines, extracted with
 * the app's own PDF extractor, so the classifier sees PDF text without Markdown). Each label names
 * its text by an exact quote; the classifier's zone is the zone of the run where the quote starts.
 * Figures are printed for the tuning items, the held-out items and both.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Command } from "commander";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { extractDocument } from "@/lib/ingestion/extract";
import { type IZoneRun, zoneDocument } from "@/lib/ingestion/zones";
import { type EZone, ZONES } from "@/types/chunk.types";

const opts = new Command()
  .option("--labels <file>", "labelled spans (JSONL)", "eval/zones/labels.jsonl")
  .option("--corpus <dir>", "corpus root (book folders)", "../shared/eval/corpus")
  .option("--json", "print JSON")
  .option("--dump-pdf <file>", "write the PDF source's extracted text (for labelling)")
  .parse()
  .opts<{ labels: string; corpus: string; json?: boolean; dumpPdf?: string }>();

interface ILabel {
  id: string;
  /** "physics/ch02-….md" (Markdown) or "pdf:physics/ch05-….md" (that chapter as a PDF). */
  source: string;
  quote: string;
  zone: EZone;
  split: "tune" | "heldout";
}

const PAGE = { width: 595, height: 842, margin: 50, size: 10, leading: 13 };

/** Characters the PDF standard fonts cannot encode, spelled in ASCII. */
function winAnsi(s: string): string {
  return s
    .replace(/[−–—]/g, "-")
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/Δ/g, "delta ")
    .replace(/θ/g, "theta")
    .replace(/[μµ]/g, "u")
    .replace(/×/g, "x")
    .replace(/[^\x20-\x7e\n]/g, "?");
}

/** The chapter laid out as a plain PDF: headings as bold lines, paragraphs wrapped, no Markdown marks. */
async function chapterPdf(markdown: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page = pdf.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const maxWidth = PAGE.width - 2 * PAGE.margin;
  const line = (text: string, font = regular) => {
    if (y < PAGE.margin) {
      page = pdf.addPage([PAGE.width, PAGE.height]);
      y = PAGE.height - PAGE.margin;
    }
    page.drawText(text, { x: PAGE.margin, y, size: PAGE.size, font });
    y -= PAGE.leading;
  };
  for (const block of markdown.split(/\n\s*\n/)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(block.trim());
    if (heading) {
      y -= PAGE.leading / 2;
      line(winAnsi(heading[1]!), bold);
      y -= PAGE.leading / 2;
      continue;
    }
    for (const raw of block.split("\n")) {
      let current = "";
      for (const word of winAnsi(raw.replace(/^\|/, "").trim()).split(/\s+/)) {
        const next = current ? `${current} ${word}` : word;
        if (regular.widthOfTextAtSize(next, PAGE.size) > maxWidth && current) {
          line(current);
          current = word;
        } else current = next;
      }
      if (current) line(current);
    }
    y -= PAGE.leading;
  }
  return pdf.save();
}

const sources = new Map<string, { text: string; runs: IZoneRun[] }>();

async function loadSource(source: string) {
  const hit = sources.get(source);
  if (hit) return hit;
  const isPdf = source.startsWith("pdf:");
  const markdown = await readFile(path.join(opts.corpus, source.replace(/^pdf:/, "")), "utf8");
  const doc = isPdf
    ? await extractDocument(await chapterPdf(markdown), "application/pdf")
    : { mimeType: "text/markdown", pages: [{ pageNumber: 1, text: markdown }] };
  const zoned = zoneDocument(doc);
  if (isPdf && opts.dumpPdf) await writeFile(opts.dumpPdf, zoned.text);
  sources.set(source, zoned);
  return zoned;
}

/** Where the quote starts in the text, whitespace-insensitive (PDF text wraps lines). */
function locate(text: string, quote: string): number {
  const exact = text.indexOf(quote);
  if (exact >= 0) return exact;
  const words = quote.trim().split(/\s+/).slice(0, 12);
  const re = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"));
  return re.exec(text)?.index ?? -1;
}

function zoneAt(runs: readonly IZoneRun[], at: number): EZone | null {
  return runs.find((r) => r.start <= at && at < r.end)?.zone ?? null;
}

interface IScore {
  zone: EZone;
  support: number;
  predicted: number;
  tp: number;
}

function score(pairs: readonly { gold: EZone; got: EZone | null }[]): IScore[] {
  return ZONES.map((zone) => ({
    zone,
    support: pairs.filter((p) => p.gold === zone).length,
    predicted: pairs.filter((p) => p.got === zone).length,
    tp: pairs.filter((p) => p.gold === zone && p.got === zone).length,
  }));
}

const fmt = (n: number, d: number) => (d === 0 ? "—" : (n / d).toFixed(3));

const labels = (await readFile(opts.labels, "utf8"))
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as ILabel);
const results: { label: ILabel; got: EZone | null }[] = [];
for (const label of labels) {
  const { text, runs } = await loadSource(label.source);
  const at = locate(text, label.quote);
  if (at < 0) throw new Error(`${label.id}: quote not found in ${label.source}: ${label.quote.slice(0, 60)}`);
  results.push({ label, got: zoneAt(runs, at + (/^\s*/.exec(text.slice(at))?.[0].length ?? 0)) });
}

const report: Record<string, IScore[]> = {};
for (const split of ["tune", "heldout", "all"] as const) {
  const pairs = results
    .filter((r) => split === "all" || r.label.split === split)
    .map((r) => ({ gold: r.label.zone, got: r.got }));
  report[split] = score(pairs);
}

if (opts.json) {
  console.log(
    JSON.stringify({ report, errors: results.filter((r) => r.got !== r.label.zone).map((r) => r.label.id) }),
  );
} else {
  for (const [split, scores] of Object.entries(report)) {
    const n = results.filter((r) => split === "all" || r.label.split === split).length;
    const right = results.filter(
      (r) => (split === "all" || r.label.split === split) && r.got === r.label.zone,
    ).length;
    console.log(`\n## ${split} (${n} labelled spans, accuracy ${fmt(right, n)})`);
    console.log("| zone | labelled | predicted | precision | recall |");
    console.log("|---|---:|---:|---:|---:|");
    for (const s of scores) {
      if (s.support === 0 && s.predicted === 0) continue;
      console.log(
        `| ${s.zone} | ${s.support} | ${s.predicted} | ${fmt(s.tp, s.predicted)} | ${fmt(s.tp, s.support)} |`,
      );
    }
  }
  const wrong = results.filter((r) => r.got !== r.label.zone);
  if (wrong.length) {
    console.log("\nmisread:");
    for (const r of wrong)
      console.log(
        `  ${r.label.id} (${r.label.split}) ${r.label.zone} → ${r.got}: ${r.label.quote.slice(0, 70)}`,
      );
  }
}
