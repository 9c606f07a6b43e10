import "server-only";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { assertSafeKey } from "./keys";
import type { IObjectStorage } from "./types";

/** Files under `<dataDir>/storage/<bucket>/<path>`, written atomically (temp file + rename). */
export function createLocalStorage(root: string): IObjectStorage {
  const resolve = (bucket: string, key: string): string => {
    const segments = assertSafeKey(bucket, key);
    const full = path.resolve(root, bucket, ...segments);
    if (!full.startsWith(path.resolve(root) + path.sep))
      throw new AppError("bad_request", "Invalid storage key");
    return full;
  };
  return {
    kind: "local",
    async put(bucket, key, bytes) {
      const full = resolve(bucket, key);
      await mkdir(path.dirname(full), { recursive: true });
      const tmp = `${full}.${process.pid}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, full);
    },
    async get(bucket, key) {
      try {
        return new Uint8Array(await readFile(resolve(bucket, key)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT")
          throw new AppError("not_found", "Stored file not found");
        throw err;
      }
    },
    async remove(bucket, key) {
      await rm(resolve(bucket, key), { force: true });
    },
  };
}
