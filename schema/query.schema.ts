import { z } from "zod";

/**
 * A whole number in a query string. Built as a digits-only string piped into a number (not
 * `z.coerce.number()`), so the OpenAPI document says "integer, required" (or its default), and a
 * missing value answers "expected string, received undefined" instead of "received NaN".
 */
export function queryInt(min: number, max: number, label = "a whole number") {
  return z
    .string()
    .regex(/^\d{1,9}$/, `Expected ${label}`)
    .pipe(z.coerce.number<string>().int().min(min).max(max))
    .meta({ type: "integer", minimum: min, maximum: max });
}

/** An optional whole number in a query string, with the default the document shows. */
export function queryIntOr(min: number, max: number, fallback: number) {
  return queryInt(min, max)
    .default(fallback)
    .meta({ type: "integer", minimum: min, maximum: max, default: fallback });
}
