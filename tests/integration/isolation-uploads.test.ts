import { readdirSync } from "node:fs";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/resources/route";
import { createTestEnv, dbSnapshot, type ITestEnv, params } from "../support/test-env";

/**
 * Bounded uploads (issue 26): the per-file limit stops the read while the body streams, a body
 * that stalls is cut off, and one user cannot hold more than their share of uploads at once.
 * Limits for this file: 1 MB per file, 1.5 s idle body timeout, 2 uploads per user at once, an
 * upload quota of 1.5 MB of stored originals per user.
 */
const FIELDS = {
  board: "OpenStax",
  grade: "11",
  subject: "Biology",
  chapterName: "Cells",
  visibility: "private",
};
let env: ITestEnv;

beforeAll(async () => {
  env = await createTestEnv({
    PAPERWISE_MAX_UPLOAD_MB: "1",
    PAPERWISE_BODY_IDLE_TIMEOUT_MS: "1500",
    PAPERWISE_MAX_CONCURRENT_PER_USER: "2",
    PAPERWISE_UPLOAD_QUOTA_MB: "1.5",
  });
});
afterAll(async () => {
  await env?.close();
});

const enc = new TextEncoder();
const fieldParts = Object.entries(FIELDS)
  .map(([k, v]) => `--b\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
  .join("");
const fileHead = (name: string) =>
  `--b\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/markdown\r\n\r\n`;

/** A multipart body fed by `pull`; counts what the server read. */
function streamedUpload(token: string, pull: (c: ReadableStreamDefaultController<Uint8Array>) => unknown) {
  const sent = { bytes: 0 };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(enc.encode(fieldParts));
    },
    async pull(c) {
      await pull({
        enqueue: (chunk: Uint8Array) => {
          sent.bytes += chunk.byteLength;
          c.enqueue(chunk);
        },
        close: () => c.close(),
        error: (e: unknown) => c.error(e),
        desiredSize: c.desiredSize,
      } as ReadableStreamDefaultController<Uint8Array>);
    },
  });
  const req = new Request("http://localhost/api/resources", {
    method: "POST",
    body,
    headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=b" },
    duplex: "half",
  } as RequestInit);
  return { req, sent };
}

const uploadTemps = () => readdirSync(os.tmpdir()).filter((n) => n.startsWith("paperwise-upload-")).length;

describe("bounded uploads", () => {
  it("stops reading at the first file over the per-file limit (413), not at the body limit", async () => {
    const chunk = enc.encode(`${"# Heading\n\nThe cell membrane controls what enters. ".repeat(1000)}\n`);
    let started = false;
    const { req, sent } = streamedUpload(env.teacher.token, (c) => {
      if (!started) {
        started = true;
        c.enqueue(enc.encode(fileHead("huge.md")));
      }
      if (sent.bytes > 64 * 1024 * 1024) return c.close();
      c.enqueue(chunk);
    });
    const before = await dbSnapshot(env.db);
    const temps = uploadTemps();
    const res = await upload(req, params({}));
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/huge\.md is over the 1 MB limit/);
    // The file limit is 1 MB (the body limit 5 MB): the read stopped a few chunks past the file's.
    expect(sent.bytes).toBeLessThan(1024 * 1024 + 8 * chunk.byteLength);
    expect(await dbSnapshot(env.db)).toBe(before);
    // Its temporary folder is gone.
    expect(uploadTemps()).toBeLessThanOrEqual(temps);
  });

  it("cuts off a body that stops sending (408) and leaves nothing behind", async () => {
    let step = 0;
    const { req } = streamedUpload(env.teacher.token, async (c) => {
      step++;
      if (step === 1) c.enqueue(enc.encode(`${fileHead("slow.md")}# Slow\n\nA few words. `));
      else await new Promise((r) => setTimeout(r, 60_000)); // never sends the rest
    });
    const before = await dbSnapshot(env.db);
    const t0 = performance.now();
    const res = await upload(req, params({}));
    expect(res.status).toBe(408);
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/too slowly/);
    expect(await dbSnapshot(env.db)).toBe(before);
  });

  it("refuses a third upload of the same user while two are running (429 with Retry-After); others are not affected", async () => {
    let open = false;
    let holding = 0;
    const slow = () => {
      let step = 0;
      return streamedUpload(env.teacher.token, async (c) => {
        step++;
        if (step === 1) {
          holding++;
          c.enqueue(
            enc.encode(
              `${fileHead(`held-${holding}.md`)}# Held ${holding}\n\nWords about cell number ${holding}. `,
            ),
          );
        } else if (!open) {
          // Still sending, slowly (under the idle timeout): the upload stays in progress.
          await new Promise((r) => setTimeout(r, 300));
          c.enqueue(enc.encode(" "));
        } else {
          c.enqueue(enc.encode("\r\n--b--\r\n"));
          c.close();
        }
      });
    };
    const held = [slow(), slow()].map(({ req }) => upload(req, params({})));
    while (holding < 2) await new Promise((r) => setTimeout(r, 10));

    const third = streamedUpload(env.teacher.token, (c) => {
      c.enqueue(enc.encode(`${fileHead("third.md")}# Third\n\nWords.\r\n--b--\r\n`));
      c.close();
    });
    const refused = await upload(third.req, params({}));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /already have 2 uploads running/,
    );

    // Another teacher uploads meanwhile.
    const other = streamedUpload(env.otherTeacher.token, (c) => {
      c.enqueue(enc.encode(`${fileHead("other.md")}# Other\n\nThe nucleus holds the DNA.\r\n--b--\r\n`));
      c.close();
    });
    expect((await upload(other.req, params({}))).status).toBe(202);

    open = true;
    for (const res of await Promise.all(held)) expect(res.status).toBe(202);
    // Refusals do not hold slots either: two uploads at once go through again.
    // Both slots were given back.
    const again = ["Ribosomes make proteins.", "Mitochondria release energy."].map(
      (text, i) =>
        streamedUpload(env.teacher.token, (c) => {
          c.enqueue(enc.encode(`${fileHead(`again-${i}.md`)}# Again ${i}\n\n${text}\r\n--b--\r\n`));
          c.close();
        }).req,
    );
    const statuses = await Promise.all(again.map(async (req) => (await upload(req, params({}))).status));
    expect(statuses).toEqual([202, 202]);
  });

  it("refuses an upload past the user's quota while it streams (413 naming the quota and the use); other users keep theirs", async () => {
    const para = "The cell membrane is a phospholipid bilayer that controls what enters the cell. ";
    const text = (title: string, bytes: number) =>
      `# ${title}\n\n${para.repeat(Math.ceil(bytes / para.length))}`;
    // 0.9 MB stored: 0.6 MB of the 1.5 MB quota left.
    const first = streamedUpload(env.admin.token, (c) => {
      c.enqueue(enc.encode(`${fileHead("first.md")}${text("First", 0.9 * 1048576)}\r\n--b--\r\n`));
      c.close();
    });
    expect((await upload(first.req, params({}))).status).toBe(202);

    const chunk = enc.encode(para.repeat(200));
    let started = false;
    const second = streamedUpload(env.admin.token, (c) => {
      if (!started) {
        started = true;
        c.enqueue(enc.encode(`${fileHead("second.md")}# Second\n\n`));
      }
      if (second.sent.bytes > 64 * 1024 * 1024) return c.close();
      c.enqueue(chunk);
    });
    const before = await dbSnapshot(env.db);
    const temps = uploadTemps();
    const res = await upload(second.req, params({}));
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { message: string; details: { path: string }[] } };
    expect(body.error.message).toMatch(
      /past your upload quota of 1\.5 MB: your stored originals use 0\.9 MB \(0\.6 MB left\)/,
    );
    expect(body.error.details[0]!.path).toBe("file");
    // Stopped at the quota left (0.6 MB), before the 1 MB file limit.
    expect(second.sent.bytes).toBeLessThan(0.6 * 1048576 + 8 * chunk.byteLength);
    expect(await dbSnapshot(env.db)).toBe(before);
    expect(uploadTemps()).toBeLessThanOrEqual(temps);

    // Another user's quota is their own.
    const other = streamedUpload(env.otherTeacher.token, (c) => {
      c.enqueue(enc.encode(`${fileHead("mine.md")}${text("Mine", 0.9 * 1048576)}\r\n--b--\r\n`));
      c.close();
    });
    expect((await upload(other.req, params({}))).status).toBe(202);
  });
});
