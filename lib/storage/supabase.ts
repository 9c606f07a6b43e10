import "server-only";
import { StorageClient } from "@supabase/storage-js";
import { AppError } from "@/lib/errors";
import { assertSafeKey } from "./keys";
import type { IObjectStorage } from "./types";

/**
 * Supabase Storage with the service-role key (server only; buckets stay private). Storage's own
 * client, not `createClient()`: the full client builds a Realtime client that throws on Node 20
 * ("Node.js 20 detected without native WebSocket support"), and storage needs none of it.
 */
export function createSupabaseStorage(url: string, serviceRoleKey: string): IObjectStorage {
  const client = {
    storage: new StorageClient(`${url.replace(/\/+$/, "")}/storage/v1`, {
      apikey: serviceRoleKey,
      Authorization: `Bearer ${serviceRoleKey}`,
    }),
  };
  const ensured = new Set<string>();
  async function ensureBucket(bucket: string): Promise<void> {
    if (ensured.has(bucket)) return;
    const { error } = await client.storage.createBucket(bucket, { public: false });
    if (error && !/exists/i.test(error.message))
      throw new AppError("unavailable", "Storage bucket unavailable");
    ensured.add(bucket);
  }
  return {
    kind: "supabase",
    async put(bucket, key, bytes, contentType) {
      assertSafeKey(bucket, key);
      await ensureBucket(bucket);
      const { error } = await client.storage.from(bucket).upload(key, bytes, { contentType, upsert: true });
      if (error) throw new AppError("unavailable", "Could not store the file");
    },
    async get(bucket, key) {
      assertSafeKey(bucket, key);
      const { data, error } = await client.storage.from(bucket).download(key);
      if (error || !data) throw new AppError("not_found", "Stored file not found");
      return new Uint8Array(await data.arrayBuffer());
    },
    async remove(bucket, key) {
      assertSafeKey(bucket, key);
      await client.storage.from(bucket).remove([key]);
    },
  };
}
