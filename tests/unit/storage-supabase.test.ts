import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSupabaseStorage } from "@/lib/storage/supabase";

/**
 * Supabase Storage against a stand-in of its REST API on 127.0.0.1: the adapter must build on
 * Node 20 (the full supabase-js client throws there for want of a WebSocket) and speak Storage's
 * routes with the service-role key.
 */
const objects = new Map<string, Buffer>();
const seen: { method: string; path: string; auth: string | undefined }[] = [];
let server: Server;
let base = "";

async function body(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of req) parts.push(p as Buffer);
  return Buffer.concat(parts);
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    seen.push({ method: req.method ?? "", path, auth: req.headers.authorization });
    const data = await body(req);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(value));
    };
    if (req.method === "POST" && path === "/storage/v1/bucket") return json(200, { name: "resources" });
    const object = /^\/storage\/v1\/object\/(.+)$/.exec(path)?.[1];
    if (req.method === "POST" && object) {
      objects.set(object, data);
      return json(200, { Key: object });
    }
    if (req.method === "GET" && object) {
      const stored = objects.get(object);
      if (!stored) return json(404, { statusCode: "404", error: "not_found", message: "Object not found" });
      res.writeHead(200, { "content-type": "application/octet-stream" });
      return res.end(stored);
    }
    if (req.method === "DELETE" && object) {
      const { prefixes } = JSON.parse(data.toString() || "{}") as { prefixes?: string[] };
      for (const p of prefixes ?? []) objects.delete(`${object}/${p}`);
      return json(200, []);
    }
    json(400, { message: "unexpected" });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => server.close());

describe("Supabase storage adapter", () => {
  it("builds on this Node and stores, reads and removes a file with the service-role key", async () => {
    const storage = createSupabaseStorage(`${base}/`, "service-key");
    expect(storage.kind).toBe("supabase");
    const bytes = new TextEncoder().encode("photosynthesis notes");
    await storage.put("resources", "u1/doc.md", bytes, "text/markdown");
    expect(objects.has("resources/u1/doc.md")).toBe(true);
    expect(new TextDecoder().decode(await storage.get("resources", "u1/doc.md"))).toBe(
      "photosynthesis notes",
    );
    await storage.remove("resources", "u1/doc.md");
    expect(objects.has("resources/u1/doc.md")).toBe(false);
    await expect(storage.get("resources", "u1/doc.md")).rejects.toMatchObject({ code: "not_found" });
    expect(seen.every((r) => r.auth === "Bearer service-key")).toBe(true);
    expect(seen[0]).toMatchObject({ method: "POST", path: "/storage/v1/bucket" });
  });
});
