/** Storage-style object keys: a bucket plus a `/`-separated path, as in Supabase Storage. */
export interface IObjectStorage {
  readonly kind: "local" | "supabase";
  put(bucket: string, path: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(bucket: string, path: string): Promise<Uint8Array>;
  remove(bucket: string, path: string): Promise<void>;
}

export const RESOURCES_BUCKET = "resources";
