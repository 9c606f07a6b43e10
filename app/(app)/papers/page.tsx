import { HydrationBoundary } from "@tanstack/react-query";
import { PapersList } from "@/components/papers/papers-list";
import { pageQueries } from "@/lib/query/page-queries";
import { prefetchForSession } from "@/lib/query/prefetch";

export default async function PapersPage() {
  // The list and the new-paper form's Board/Class/Subject choices come with the page.
  const state = await prefetchForSession([pageQueries.papers(), pageQueries.facets()]);
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-2xl font-semibold tracking-tight">Question papers</h1>
      <p className="text-sm text-muted-foreground">
        Assemble papers from your generated questions, check them against a blueprint and export them with the
        answer key.
      </p>
      <HydrationBoundary state={state}>
        <PapersList />
      </HydrationBoundary>
    </div>
  );
}
