import { HydrationBoundary } from "@tanstack/react-query";
import { Suspense } from "react";
import { QuestionsBuilder } from "@/components/builder/questions-builder";
import { pageQueries } from "@/lib/query/page-queries";
import { prefetchForSession } from "@/lib/query/prefetch";

export default async function QuestionsPage() {
  // The Board/Class/Subject choices come with the page.
  const state = await prefetchForSession([pageQueries.facets()]);
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-2xl font-semibold tracking-tight">Questions builder</h1>
      <p className="text-sm text-muted-foreground">
        Retrieve passages from your curriculum, then generate grounded questions that cite them.
      </p>
      <HydrationBoundary state={state}>
        <Suspense>
          <QuestionsBuilder />
        </Suspense>
      </HydrationBoundary>
    </div>
  );
}
