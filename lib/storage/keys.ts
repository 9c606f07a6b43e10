import { AppError } from "@/lib/errors";

const SEGMENT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * Object keys come from our own code, but anything that reaches the file system is checked
 * anyway: each segment is a plain name (no `..`, no separators, no NUL), at most 8 deep.
 */
export function assertSafeKey(bucket: string, path: string): string[] {
  const segments = path.split("/");
  const ok =
    SEGMENT_RE.test(bucket) &&
    segments.length > 0 &&
    segments.length <= 8 &&
    segments.every((s) => SEGMENT_RE.test(s) && s !== "." && s !== ".." && !s.includes(".."));
  if (!ok) throw new AppError("bad_request", "Invalid storage key");
  return segments;
}

/** A safe file name for a stored original: keeps a readable stem and the extension. */
export function safeFileName(name: string, fallbackExt: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  const stem = (dot > 0 ? base.slice(0, dot) : base)
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 80);
  return `${stem || "document"}.${fallbackExt}`;
}
