import type { ICopyColumn } from "./types";

/**
 * Encodes rows in PostgreSQL's binary COPY format. A vector is int16 dim, int16 0, then dim
 * big-endian float32 (pgvector's `vector_send`). Both drivers bulk-insert with it.
 */
const SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);

function encodeUuid(value: string): Buffer {
  const hex = value.replace(/-/g, "");
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`Invalid uuid for COPY: ${value}`);
  return Buffer.from(hex, "hex");
}

function encodeField(type: ICopyColumn["type"], value: unknown): Buffer | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "uuid":
      return encodeUuid(String(value));
    case "int4": {
      const b = Buffer.alloc(4);
      b.writeInt32BE(Number(value));
      return b;
    }
    case "text":
      return Buffer.from(String(value), "utf8");
    case "jsonb": {
      const json = Buffer.from(JSON.stringify(value), "utf8");
      return Buffer.concat([Buffer.from([1]), json]);
    }
    case "vector": {
      const vec = value as ArrayLike<number>;
      const b = Buffer.alloc(4 + vec.length * 4);
      b.writeInt16BE(vec.length, 0);
      b.writeInt16BE(0, 2);
      for (let i = 0; i < vec.length; i++) b.writeFloatBE(vec[i]!, 4 + i * 4);
      return b;
    }
  }
}

export function encodeBinaryCopy(columns: readonly ICopyColumn[], rows: readonly unknown[][]): Buffer {
  const parts: Buffer[] = [SIGNATURE, Buffer.alloc(8)];
  for (const row of rows) {
    const head = Buffer.alloc(2);
    head.writeInt16BE(columns.length);
    parts.push(head);
    columns.forEach((col, i) => {
      const field = encodeField(col.type, row[i]);
      const len = Buffer.alloc(4);
      len.writeInt32BE(field ? field.length : -1);
      parts.push(len);
      if (field) parts.push(field);
    });
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1);
  parts.push(trailer);
  return Buffer.concat(parts);
}
