"use client";

import { useQuery } from "@tanstack/react-query";
import { QUESTION_TYPES } from "@/schema/enums.schema";
import { getGenerationSupport } from "@/services/generation.services";
import { BLOOM_LEVELS } from "@/types/bloom.types";
import type { EQuestionType } from "@/types/generation.types";

const LABEL: Record<EQuestionType, string> = { mcq: "MCQ", short: "Short", long: "Long" };

/**
 * "What the passages can support": per question type and Bloom level, how many distinct questions
 * the offline forms write from the selected passages that pass the quality gate (a dry run, up to
 * 3), and for a 0 the reason (on hover and listed), so the blueprint can be set to what the
 * passages carry before generating. "(+n)" and the hint below say what ticking "Also use the rest of
 * the section" would add.
 */
export function SupportTable({
  context,
  useSection = false,
}: {
  context: { documentId: string; chunkIndex: number }[];
  /** "Also use the rest of the section" is ticked: the hint says the set draws on it. */
  useSection?: boolean;
}) {
  const q = useQuery({
    queryKey: ["generation-support", context.map((c) => `${c.documentId}:${c.chunkIndex}`).join(",")],
    queryFn: () => getGenerationSupport(context),
    enabled: context.length > 0,
    staleTime: 5 * 60_000,
  });
  if (context.length === 0) return null;
  if (q.isPending)
    return <p className="text-sm text-muted-foreground">Reading what the passages can support…</p>;
  if (q.isError) return <p className="text-sm text-destructive">{q.error.message}</p>;
  const at = (t: EQuestionType, l: string) => q.data.support.find((s) => s.type === t && s.level === l);
  const missing = BLOOM_LEVELS.flatMap((l) => {
    const rows = QUESTION_TYPES.map((t) => at(t, l)).filter((r) => r !== undefined);
    return rows.every((r) => r.count === 0)
      ? [
          {
            level: l,
            reason:
              (rows.find((r) => r.reason && !r.reason.startsWith("the offline generator has no")) ?? rows[0])
                ?.reason ?? "",
            // What "Also use the rest of the section" would give at this level (distinct questions).
            withSection: Math.max(0, ...rows.map((r) => r.withSection ?? 0)),
          },
        ]
      : [];
  });
  const sectionAdds = missing.filter((m) => m.withSection > 0).map((m) => m.level);
  return (
    <details className="text-sm" data-testid="support-table" open={missing.length > 0}>
      <summary className="cursor-pointer font-medium">What the selected passages can support</summary>
      <table className="mt-2 w-full border-collapse text-left">
        <thead>
          <tr>
            <th className="py-1 pr-2 font-medium">Type</th>
            {BLOOM_LEVELS.map((l) => (
              <th key={l} className="px-1 py-1 font-medium">
                {/* On a phone the six level names do not fit side by side: "Rem", "Und", … */}
                <span aria-hidden="true" className="sm:hidden">
                  {l.slice(0, 3)}
                </span>
                <span className="sr-only sm:not-sr-only">{l}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {QUESTION_TYPES.map((t) => (
            <tr key={t} className="border-t">
              <th className="py-1 pr-2 font-normal">{LABEL[t]}</th>
              {BLOOM_LEVELS.map((l) => {
                const row = at(t, l);
                const n = row?.count ?? 0;
                return (
                  <td
                    key={l}
                    title={
                      row?.reason ||
                      `${n === 3 ? "3 or more" : n} ${n === 1 ? "question passes" : "questions pass"} the quality gate`
                    }
                    className={n === 0 ? "px-1 py-1 text-muted-foreground" : "px-1 py-1"}
                  >
                    {n}
                    {(row?.withSection ?? n) > n && (
                      <span
                        className="ml-0.5 text-xs text-muted-foreground"
                        title={`${row?.withSection} with the rest of the section`}
                      >
                        (+{(row?.withSection ?? n) - n})
                      </span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {missing.length > 0 && (
        <ul className="mt-2 list-disc pl-5 text-muted-foreground" data-testid="support-missing">
          {missing.map((m) => (
            <li key={m.level}>
              {m.level}: 0 — {m.reason}
              {m.withSection > 0 && ` (with the rest of the section: ${m.withSection})`}
            </li>
          ))}
        </ul>
      )}
      {sectionAdds.length > 0 && (
        <p className="mt-2 text-muted-foreground" data-testid="support-section-hint">
          {useSection
            ? `“Also use the rest of the section” is ticked: slots at ${sectionAdds.join(", ")} draw on it (their questions cite those passages).`
            : `The rest of the section holds material for ${sectionAdds.join(", ")}: tick “Also use the rest of the section” to draw on it (questions then cite those passages too).`}
        </p>
      )}
    </details>
  );
}
