import { HydrationBoundary } from "@tanstack/react-query";
import { Library } from "@/components/library/library";
import { resourceKeys } from "@/hooks/use-resources";
import { getSessionUser } from "@/lib/auth/session";
import { listIngestions, toIngestion } from "@/lib/ingestion/store";
import { prefetchForSession } from "@/lib/query/prefetch";
import { ListResourcesQuerySchema } from "@/schema/resources.schema";

export default async function LibraryPage() {
  const user = await getSessionUser();
  // The list comes with the page (GET /api/resources?limit=200's answer); polling takes over.
  const state = await prefetchForSession([
    {
      queryKey: resourceKeys.list(),
      load: async (db, userId) => {
        const query = ListResourcesQuerySchema.parse({ limit: "200" });
        const { items, total } = await listIngestions(db, { userId, ...query });
        return { ok: true, items: items.map(toIngestion), total };
      },
    },
  ]);
  return (
    <div className="flex flex-col gap-2">
      <h1 className="text-2xl font-semibold tracking-tight">Resource library</h1>
      <p className="text-sm text-muted-foreground">
        {user?.role === "admin"
          ? "Upload textbooks, past papers and notes for every teacher."
          : "Upload private notes for yourself; shared resources come from curriculum admins."}
      </p>
      <HydrationBoundary state={state}>
        <Library role={user?.role ?? "teacher"} />
      </HydrationBoundary>
    </div>
  );
}
