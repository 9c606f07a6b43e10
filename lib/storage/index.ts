import "server-only";
import { getConfig } from "@/lib/config/env";
import { createLocalStorage } from "./local";
import { createSupabaseStorage } from "./supabase";
import type { IObjectStorage } from "./types";

export type { IObjectStorage } from "./types";
export { RESOURCES_BUCKET } from "./types";

let storage: IObjectStorage | null = null;

export function getStorage(): IObjectStorage {
  if (!storage) {
    const config = getConfig().storage;
    storage =
      config.kind === "local"
        ? createLocalStorage(config.dir)
        : createSupabaseStorage(config.url, config.serviceRoleKey);
  }
  return storage;
}

export function setStorageForProcess(s: IObjectStorage | null): void {
  storage = s;
}
