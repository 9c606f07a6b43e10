import type { EZone, TZoneSpan } from "@/types/chunk.types";

/** How each zone is named and tinted; the lesson's prose stays untinted. */
export const ZONE_STYLE: Record<EZone, { label: string; className: string }> = {
  exposition: { label: "Lesson", className: "" },
  definition: { label: "Definition", className: "bg-sky-100 dark:bg-sky-900/40" },
  worked_example: { label: "Worked example", className: "bg-emerald-100 dark:bg-emerald-900/40" },
  activity: { label: "Activity / lab", className: "bg-amber-100 dark:bg-amber-900/40" },
  media: { label: "Video / simulation / link", className: "bg-violet-100 dark:bg-violet-900/40" },
  caption: { label: "Caption / credit", className: "bg-stone-200 dark:bg-stone-700/50" },
  feature_box: { label: "Feature box", className: "bg-rose-100 dark:bg-rose-900/40" },
  book_question: { label: "Book's own questions", className: "bg-orange-100 dark:bg-orange-900/40" },
  summary: { label: "Summary", className: "bg-teal-100 dark:bg-teal-900/40" },
  glossary: { label: "Glossary", className: "bg-lime-100 dark:bg-lime-900/40" },
};

/** A passage's text with each zone's run tinted (title = the zone's name). */
export function ZonedText({ content, spans }: { content: string; spans?: readonly TZoneSpan[] }) {
  if (!spans || spans.length === 0) return <>{content}</>;
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [start, end, zone] of spans) {
    if (start < at || end > content.length) continue;
    if (start > at) parts.push(content.slice(at, start));
    const style = ZONE_STYLE[zone];
    parts.push(
      style.className ? (
        <mark
          key={start}
          className={`${style.className} rounded-sm text-inherit`}
          title={style.label}
          data-zone={zone}
        >
          {content.slice(start, end)}
        </mark>
      ) : (
        content.slice(start, end)
      ),
    );
    at = end;
  }
  if (at < content.length) parts.push(content.slice(at));
  return <>{parts}</>;
}

/** The tints' key, for the zones that occur (all tinted ones when none are given). */
export function ZoneLegend({ zones }: { zones?: readonly EZone[] }) {
  const shown = (Object.keys(ZONE_STYLE) as EZone[]).filter(
    (z) => ZONE_STYLE[z].className && (!zones || zones.includes(z)),
  );
  if (shown.length === 0) return null;
  return (
    <ul
      className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground"
      data-testid="zone-legend"
      aria-label="Passage kinds"
    >
      {shown.map((z) => (
        <li key={z} className="flex items-center gap-1">
          <span aria-hidden className={`inline-block h-3 w-3 rounded-sm ${ZONE_STYLE[z].className}`} />
          {ZONE_STYLE[z].label}
        </li>
      ))}
    </ul>
  );
}
