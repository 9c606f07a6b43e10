import type { TIngestion } from "@/schema/resources.schema";
import { apiFetch } from "./http";

export const getResources = () =>
  apiFetch<{ ok: true; items: TIngestion[]; total: number }>("/api/resources?limit=200");

export const postResources = (form: FormData) =>
  apiFetch<{ ok: true; ingestions: (TIngestion & { duplicate: boolean })[] }>("/api/resources", {
    method: "POST",
    body: form,
  });

export const deleteResource = (id: string) =>
  apiFetch<{ ok: true }>(`/api/resources/${id}`, { method: "DELETE" });

export const retryResource = (id: string) =>
  apiFetch<{ ok: true }>(`/api/resources/${id}/retry`, { method: "POST" });
