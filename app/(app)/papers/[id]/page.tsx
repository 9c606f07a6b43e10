import { HydrationBoundary } from "@tanstack/react-query";
import { PaperBuilder } from "@/components/papers/paper-builder";
import { pageQueries } from "@/lib/query/page-queries";
import { prefetchForSession } from "@/lib/query/prefetch";

export default async function PaperPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The paper comes with the page; a missing or foreign one is left to the client (the API's 404).
  const state = await prefetchForSession([pageQueries.paper(id)]);
  return (
    <div className="flex flex-col gap-2">
      <h1 className="sr-only">Paper builder</h1>
      <HydrationBoundary state={state}>
        <PaperBuilder id={id} />
      </HydrationBoundary>
    </div>
  );
}
