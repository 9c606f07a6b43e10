import "server-only";
import { type DehydratedState, dehydrate, QueryClient, type QueryKey } from "@tanstack/react-query";
import { getSessionUser } from "@/lib/auth/session";
import { getDb, type IDatabase } from "@/lib/db";
import { log } from "@/lib/log";

/** One query a page fills on the server: its key (from the domain's key factory) and its loader. */
export interface IServerQuery {
  queryKey: QueryKey;
  /** Returns what the matching API route answers, from the same lib function, for this user. */
  load: (db: IDatabase, userId: string) => Promise<unknown>;
}

/**
 * A page's first data, loaded on the server for the signed-in user and handed to the client's
 * query cache (`<HydrationBoundary state=…>`), so the screen paints with data instead of a
 * skeleton and a second round trip. Values go through JSON so the cache holds exactly what the API
 * would have answered (dates as strings). A load that fails is left out: the client then fetches
 * as before and shows the API's error.
 */
export async function prefetchForSession(queries: IServerQuery[]): Promise<DehydratedState> {
  const user = await getSessionUser();
  if (!user) return dehydrate(new QueryClient());
  return prefetchForUser(await getDb(), user.id, queries);
}

/** `prefetchForSession` for a known user: each query loaded, JSON round-tripped, failures left out. */
export async function prefetchForUser(
  db: IDatabase,
  userId: string,
  queries: IServerQuery[],
): Promise<DehydratedState> {
  const client = new QueryClient();
  await Promise.all(
    queries.map(async ({ queryKey, load }) => {
      try {
        client.setQueryData(queryKey, JSON.parse(JSON.stringify(await load(db, userId))));
      } catch (err) {
        log.debug("prefetch skipped", { queryKey: JSON.stringify(queryKey), err: String(err) });
      }
    }),
  );
  return dehydrate(client);
}
