import { afterEach, describe, expect, it } from "vitest";
import { buildConfig, setConfigForProcess } from "@/lib/config/env";
import { AppError } from "@/lib/errors";
import { malformedStrings } from "@/lib/http/handler";
import { assertSameOrigin, clientAddress } from "@/lib/http/origin";
import { PEER_HEADER, peerHeaderValue } from "@/lib/http/server-guard";

const useConfig = (env: Record<string, string> = {}) =>
  setConfigForProcess(buildConfig({ NODE_ENV: "test", PAPERWISE_LOG_LEVEL: "silent", ...env }));
afterEach(() => useConfig());

describe("malformedStrings: NUL and lone surrogates found once, at the boundary", () => {
  it("reports every bad string and key with its path", () => {
    const found = malformedStrings({
      title: "ok",
      instructions: ["fine", "bad \ud800"],
      nested: { deep: [{ prompt: "a\u0000b" }] },
      "key\u0000": 1,
    });
    expect(found).toHaveLength(3);
    expect(found).toEqual(
      expect.arrayContaining([
        { path: "instructions.1", message: expect.stringMatching(/unpaired UTF-16 surrogate/) },
        { path: "nested.deep.0.prompt", message: "Contains a NUL character" },
        { path: "key\u0000", message: expect.stringMatching(/^Field name: contains a nul/) },
      ]),
    );
  });

  it("accepts well-formed text of every script, emoji and RTL marks included", () => {
    expect(malformedStrings({ t: ["😀 कोशिका كتاب \u202e Δ", "\ud83d\ude00", ""] })).toEqual([]);
  });

  it("finds lone surrogates at either end and in reversed pairs", () => {
    for (const s of ["\ud800", "\udc00", "x\udbff", "\udfffx", "\udc00\ud800"]) {
      expect(malformedStrings(s), JSON.stringify(s)).toHaveLength(1);
    }
  });

  it("walks a body nested far deeper than the call stack would allow", () => {
    let v: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) v = [v];
    expect(malformedStrings(v)).toHaveLength(1);
  });
});

describe("assertSameOrigin", () => {
  const req = (headers: Record<string, string>, url = "http://127.0.0.1:3000/api/papers") =>
    new Request(url, { method: "POST", headers });
  const refused = (r: Request) => {
    try {
      assertSameOrigin(r);
      return false;
    } catch (err) {
      return err instanceof AppError && err.status === 403;
    }
  };

  it("accepts the app's own origin, by the URL or by the forwarded host", () => {
    expect(refused(req({ origin: "http://127.0.0.1:3000" }))).toBe(false);
    expect(
      refused(req({ origin: "https://paperwise.school.example", host: "paperwise.school.example" })),
    ).toBe(false);
    expect(
      refused(
        req({ origin: "https://paperwise.school.example", "x-forwarded-host": "paperwise.school.example" }),
      ),
    ).toBe(false);
    expect(refused(req({ "sec-fetch-site": "same-origin" }))).toBe(false);
    // No browser headers at all: a script or curl, which sends no cookie of its own accord.
    expect(refused(req({}))).toBe(false);
  });

  it("refuses other origins, opaque origins and cross-site fetch metadata", () => {
    expect(refused(req({ origin: "https://evil.example" }))).toBe(true);
    expect(refused(req({ origin: "http://127.0.0.1:3001" }))).toBe(true);
    expect(refused(req({ origin: "null" }))).toBe(true);
    expect(refused(req({ origin: "not a url" }))).toBe(true);
    expect(refused(req({ "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(refused(req({ "sec-fetch-site": "same-site" }))).toBe(true);
  });

  it("PAPERWISE_ALLOWED_ORIGINS admits the public origin when a proxy rewrites Host", () => {
    const behindProxy = req({ origin: "https://paperwise.school.example", host: "10.0.0.5:3000" });
    expect(refused(behindProxy)).toBe(true);
    useConfig({ PAPERWISE_ALLOWED_ORIGINS: "https://paperwise.school.example, https://other.example" });
    expect(refused(behindProxy)).toBe(false);
  });
});

describe("clientAddress", () => {
  const from = (headers: Record<string, string> = {}) => new Request("http://x/", { headers });
  const xff = (v: string) => ({ "x-forwarded-for": v });
  it("without trusted proxies: the socket's address from the guard, never X-Forwarded-For", () => {
    const peer = { [PEER_HEADER]: peerHeaderValue("198.51.100.7") };
    expect(clientAddress(from({ ...peer, ...xff("203.0.113.9") }))).toBe("198.51.100.7");
    // A client naming its own address gets nowhere: the same bucket whatever it claims.
    expect(clientAddress(from(xff("203.0.113.9")))).toBe("unknown");
    expect(clientAddress(from(xff("1.1.1.1, 203.0.113.9")))).toBe("unknown");
    // A peer header the client wrote itself (wrong or no secret) is ignored.
    expect(clientAddress(from({ [PEER_HEADER]: "guess 203.0.113.9" }))).toBe("unknown");
    expect(clientAddress(from({ [PEER_HEADER]: "203.0.113.9" }))).toBe("unknown");
  });

  it("with trusted proxies: the entry past them, or the socket when the request skipped them", () => {
    useConfig({ PAPERWISE_PROXY_HOPS: "2" });
    expect(clientAddress(from(xff("spoofed, 203.0.113.9, 10.0.0.2")))).toBe("203.0.113.9");
    expect(clientAddress(from(xff("203.0.113.9, 10.0.0.2")))).toBe("203.0.113.9");
    const peer = { [PEER_HEADER]: peerHeaderValue("10.9.9.9") };
    expect(clientAddress(from({ ...peer, ...xff("203.0.113.9") }))).toBe("10.9.9.9");
    useConfig({ PAPERWISE_PROXY_HOPS: "1" });
    expect(clientAddress(from(xff("spoofed, 203.0.113.9")))).toBe("203.0.113.9");
  });
});
