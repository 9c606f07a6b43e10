import { notFound } from "next/navigation";
import { PrintButton } from "@/components/papers/print-button";
import { getSessionUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { buildAnswerKey, citationLabel, classLine, formatDuration } from "@/lib/papers/answer-key";
import { getPaper } from "@/lib/papers/store";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Print view of the answer key and marking scheme (browser "Print" or "Save as PDF"). */
export default async function AnswerKeyPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await getSessionUser();
  if (!user || !UUID.test(id)) notFound();
  const paper = await getPaper(await getDb(), user.id, id).catch((err: unknown) => {
    if (isAppError(err) && err.code === "not_found") notFound();
    throw err;
  });
  const key = buildAnswerKey(paper);
  let lastSection = -1;
  return (
    <article
      className="mx-auto flex max-w-3xl flex-col gap-4 bg-white p-2 text-black print:p-0"
      data-testid="answer-key"
    >
      <header className="flex flex-col items-center gap-1 border-b border-black pb-3 text-center">
        {paper.schoolName && <p className="font-semibold">{paper.schoolName}</p>}
        <p>{paper.board}</p>
        <p>{classLine(paper)}</p>
        <h1 className="text-xl font-bold">{paper.title} — Answer key and marking scheme</h1>
        <p className="text-sm">
          Time: {formatDuration(paper.durationMinutes)} · Maximum marks: {paper.totalMarks}
        </p>
        <PrintButton />
      </header>
      <ol className="flex flex-col gap-3">
        {key.map((e) => {
          const heading = e.sectionIndex !== lastSection ? e.sectionName : null;
          lastSection = e.sectionIndex;
          return (
            <li key={`${e.itemId}-${e.isAlternative}`} className="flex flex-col gap-1 break-inside-avoid">
              {heading && <h2 className="mt-2 text-lg font-semibold">{heading}</h2>}
              <p className="font-medium">
                {e.isAlternative ? "OR " : `${e.number}. `}
                {e.promptText} <span className="float-right">[{e.marks}]</span>
              </p>
              {e.correctLetter && (
                <p data-testid="key-answer">
                  {/* The same lower-case letter as the printed paper and the PDF: "(c)". */}
                  Answer: ({e.correctLetter.toLowerCase()}) {e.correctText}
                </p>
              )}
              {e.explanation && <p className="text-sm">{e.explanation}</p>}
              {e.suggestedAnswer && <p className="text-sm">Suggested answer: {e.suggestedAnswer}</p>}
              {e.markingScheme.length > 0 && e.type !== "mcq" && (
                <ul className="ml-5 list-disc text-sm">
                  {e.markingScheme.map((m) => (
                    <li key={m.point}>
                      {m.point} <strong>[{m.marks}]</strong>
                    </li>
                  ))}
                </ul>
              )}
              {e.evaluatorKeywords.length > 0 && (
                <p className="text-sm">Keywords: {e.evaluatorKeywords.join(", ")}</p>
              )}
              {e.citations.length > 0 && (
                <p className="text-xs text-gray-600">Source: {e.citations.map(citationLabel).join("; ")}</p>
              )}
            </li>
          );
        })}
      </ol>
    </article>
  );
}
