// No "use client": server pages import the key factory to fill the cache (lib/query/prefetch.ts);
// the TanStack hooks used here are client modules of their own.

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/services/http";
import { deleteResource, getResources, postResources, retryResource } from "@/services/resources.services";
import type { EZone, TZoneSpan } from "@/types/chunk.types";

/** Every resources (library) query key. */
export const resourceKeys = {
  all: ["resources"] as const,
  list: () => [...resourceKeys.all, "list"] as const,
  chunks: (id: string) => [...resourceKeys.all, "chunks", id] as const,
};

export interface IChunkPreview {
  chunkIndex: number;
  content: string;
  tokens: number;
  pageStart: number | null;
  pageEnd: number | null;
  sectionPath: string;
  /** What the chunk is (lesson or side material) and its runs by zone, for the preview's tints. */
  zone: EZone;
  zoneSpans: TZoneSpan[];
}

/** The library list, polled every second while any upload is still being ingested. */
export const resourcesQuery = () =>
  queryOptions({
    queryKey: resourceKeys.list(),
    queryFn: getResources,
    refetchInterval: (q) =>
      q.state.data?.items.some((i) => i.status !== "ready" && i.status !== "failed") ? 1000 : false,
  });

export function useResources() {
  return useQuery(resourcesQuery());
}

/** Uploads files with their metadata; the list refetches (and starts polling) afterwards. */
export function useUploadResources(options: {
  onSuccess?: (res: Awaited<ReturnType<typeof postResources>>) => void;
  onError?: (e: Error) => void;
}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: postResources,
    onSuccess: (res) => {
      options.onSuccess?.(res);
      void qc.invalidateQueries({ queryKey: resourceKeys.list() });
    },
    onError: options.onError,
  });
}

export function useDeleteResource() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteResource,
    onSuccess: () => qc.invalidateQueries({ queryKey: resourceKeys.list() }),
  });
}

/** Retry a failed ingestion, or re-ingest a ready one with the current embedder. */
export function useRetryResource() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: retryResource,
    onSuccess: () => qc.invalidateQueries({ queryKey: resourceKeys.list() }),
  });
}

/** The first chunks of one resource, for its preview. */
export function useResourceChunks(id: string) {
  return useQuery({
    queryKey: resourceKeys.chunks(id),
    queryFn: () =>
      apiFetch<{ ok: true; items: IChunkPreview[]; total: number }>(`/api/resources/${id}/chunks?limit=20`),
  });
}
