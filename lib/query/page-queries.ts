import "server-only";
import { paperKeys } from "@/hooks/use-papers";
import { resourceKeys } from "@/hooks/use-resources";
import { retrievalKeys } from "@/hooks/use-retrieval";
import { assertUuid } from "@/lib/ingestion/access";
import { listIngestions, toIngestion } from "@/lib/ingestion/store";
import { checkPaper } from "@/lib/papers/check";
import { getPaper, listPapers } from "@/lib/papers/store";
import { loadFacets } from "@/lib/retrieval/facets";
import { warmFacetScopes } from "@/lib/retrieval/scope-vocabulary";
import { ListResourcesQuerySchema } from "@/schema/resources.schema";
import type { IServerQuery } from "./prefetch";

/**
 * The first data pages load on the server, each under its hook's key and in the shape its route
 * answers (tests/integration/page-queries.test.ts compares them with the routes' JSON).
 */
export const pageQueries = {
  /** GET /api/retrieval/facets */
  facets: (): IServerQuery => ({
    queryKey: retrievalKeys.facets(),
    load: async (db, userId) => {
      const boards = await loadFacets(db, userId);
      // The questions builder opens: its scopes' phrase indexes build before the first query (not awaited).
      void warmFacetScopes(db, userId, boards);
      return { ok: true, boards };
    },
  }),
  /** GET /api/papers */
  papers: (): IServerQuery => ({
    queryKey: paperKeys.list(),
    load: async (db, userId) => ({ ok: true, papers: await listPapers(db, userId) }),
  }),
  /** GET /api/papers/{id}; a missing or foreign paper throws, and the client shows the API's 404. */
  paper: (id: string): IServerQuery => ({
    queryKey: paperKeys.detail(id),
    load: async (db, userId) => {
      assertUuid(id, "paper id");
      const paper = await getPaper(db, userId, id);
      return { ok: true, paper, check: checkPaper(paper) };
    },
  }),
  /** GET /api/resources?limit=200 (what the Library's list asks for) */
  resources: (): IServerQuery => ({
    queryKey: resourceKeys.list(),
    load: async (db, userId) => {
      const query = ListResourcesQuerySchema.parse({ limit: "200" });
      const { items, total } = await listIngestions(db, { userId, ...query });
      return { ok: true, items: items.map(toIngestion), total };
    },
  }),
};
