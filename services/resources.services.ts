import {
  deleteResourceContract,
  listResourcesContract,
  resourceChunksContract,
  retryResourceContract,
  sourcePassageContract,
  uploadResourcesContract,
} from "@/contracts/resources.contract";
import { apiFetch } from "./http";

export const getResources = () => apiFetch(listResourcesContract, { query: { limit: "200" } });

export const postResources = (form: FormData) => apiFetch(uploadResourcesContract, { form });

export const deleteResource = (id: string) => apiFetch(deleteResourceContract, { params: { id } });

export const retryResource = (id: string) => apiFetch(retryResourceContract, { params: { id } });

/** A page of a resource's chunks for the library preview. */
export const getResourceChunks = (id: string, { offset, limit }: { offset?: number; limit?: number } = {}) =>
  apiFetch(resourceChunksContract, {
    params: { id },
    query: {
      ...(offset !== undefined ? { offset: String(offset) } : {}),
      ...(limit !== undefined ? { limit: String(limit) } : {}),
    },
  });

/** A cited passage with the chunks around it, for the source view. */
export const getSourcePassage = (documentId: string, chunk: number) =>
  apiFetch(sourcePassageContract, { params: { documentId }, query: { chunk: String(chunk) } });
