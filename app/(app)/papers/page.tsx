import { HydrationBoundary } from "@tanstack/react-query";
import { PapersList } from "@/components/papers/papers-list";
import { paperKeys } from "@/hooks/use-papers";
import { retrievalKeys } from "@/hooks/use-retrieval";
import { listPapers } from "@/lib/papers/store";
import { prefetchForSession } from "@/lib/query/prefetch";
import { loadFacets } from "@/lib/retrieval/facets";

export default async function PapersPage() {
  // The list and the new-paper form's choices come with the page (the API's answers).
  const state = await prefetchForSession([
    {
      queryKey: paperKeys.list(),
      load: async (db, userId) => ({ ok: true, papers: await listPapers(db, userId) }),
    },
    {
      queryKey: retrievalKeys.facets(),
      load: async (db, userId) => ({ ok: true, boards: await loadFacets(db, userId) }),
    },
  ]);
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
