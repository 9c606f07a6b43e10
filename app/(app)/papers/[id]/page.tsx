import { HydrationBoundary } from "@tanstack/react-query";
import { PaperBuilder } from "@/components/papers/paper-builder";
import { paperKeys } from "@/hooks/use-papers";
import { assertUuid } from "@/lib/ingestion/access";
import { checkPaper } from "@/lib/papers/check";
import { getPaper } from "@/lib/papers/store";
import { prefetchForSession } from "@/lib/query/prefetch";

export default async function PaperPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The paper comes with the page (GET /api/papers/{id}'s answer); a missing or foreign paper is
  // left to the client, which shows the API's 404 as before.
  const state = await prefetchForSession([
    {
      queryKey: paperKeys.detail(id),
      load: async (db, userId) => {
        assertUuid(id, "paper id");
        const paper = await getPaper(db, userId, id);
        return { ok: true, paper, check: checkPaper(paper) };
      },
    },
  ]);
  return (
    <div className="flex flex-col gap-2">
      <h1 className="sr-only">Paper builder</h1>
      <HydrationBoundary state={state}>
        <PaperBuilder id={id} />
      </HydrationBoundary>
    </div>
  );
}
