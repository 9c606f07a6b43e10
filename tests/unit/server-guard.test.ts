import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installServerGuard, PEER_HEADER, peerSecret } from "@/lib/http/server-guard";

/**
 * The guard instrumentation.ts installs in front of Next.js, on a real Node.js HTTP server: TRACE
 * used to reach Next.js, whose `new Request()` throws for it (a 500 with a stack in the log).
 */
let server: http.Server;
let base: string;
const seen: { method: string; peer: string | undefined }[] = [];

beforeAll(async () => {
  installServerGuard(http.Server.prototype);
  installServerGuard(http.Server.prototype); // once only
  server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? "", peer: req.headers[PEER_HEADER] as string | undefined });
    // What Next.js does with every request: build a fetch Request from it.
    new Request(`http://localhost${req.url}`, { method: req.method });
    res.end("app");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** fetch refuses TRACE itself, so the forbidden methods go through node:http. */
function raw(method: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.request(`${base}/api/health`, { method, headers }, (res) => {
        let body = "";
        res.on("data", (c) => {
          body += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    },
  );
}

describe("server guard", () => {
  it("answers TRACE with a 405 JSON error before the app sees it", async () => {
    for (const method of ["TRACE"]) {
      const before = seen.length;
      const res = await raw(method);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toMatch(/GET/);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(JSON.parse(res.body)).toEqual({
        ok: false,
        error: { code: "method_not_allowed", message: expect.stringMatching(/not supported/) },
      });
      expect(seen.length).toBe(before);
    }
    // TRACK (which fetch forbids too) is not even parsed by Node.js: a 400, never the app.
    const before = seen.length;
    expect((await raw("TRACK")).status).toBe(400);
    expect(seen.length).toBe(before);
  });

  it("passes other methods on, with the socket's address signed, whatever the client sent", async () => {
    const res = await raw("GET", { [PEER_HEADER]: "forged 203.0.113.9" });
    expect(res.status).toBe(200);
    expect(res.body).toBe("app");
    const last = seen.at(-1)!;
    expect(last.peer).toBe(`${peerSecret()} 127.0.0.1`);
  });
});
