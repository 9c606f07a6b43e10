import type { ILiteral } from "./expression";
import { prettyMath, prettyUnit, toSuperscript } from "./units";

/** Numbers for display: significant figures, the unicode minus, powers of ten as superscripts. */

export function roundSig(value: number, sig: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(Math.max(1, Math.min(15, sig))));
}

const superscript = (n: number) => toSuperscript(String(n));

/**
 * `value` to `sig` significant figures. Scientific notation when asked (the book wrote the value
 * that way) and the exponent is not 0 or 1, or when the value is very large or small.
 */
export function formatSig(value: number, sig: number, sci = false, grouped = false): string {
  if (value === 0) return "0";
  const sign = value < 0 ? "−" : "";
  const r = roundSig(Math.abs(value), sig);
  const exp = Math.floor(Math.log10(r) + 1e-12);
  if ((sci && (exp >= 2 || exp <= -2)) || exp >= 6 || exp <= -4) {
    const mantissa = r / 10 ** exp;
    return `${sign}${mantissa.toFixed(Math.max(0, sig - 1))} × 10${superscript(exp)}`;
  }
  const text = r.toFixed(Math.max(0, sig - 1 - exp));
  return sign + (grouped || r >= 10_000 ? group(text) : text);
}

function group(text: string): string {
  const [int, frac] = text.split(".");
  const withCommas = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return frac === undefined ? withCommas : `${withCommas}.${frac}`;
}

/** `value` written the way the book wrote `lit`: its significant figures, notation and grouping. */
export function formatLike(value: number, lit: ILiteral): string {
  return formatSig(value, lit.sig, lit.sci, lit.grouped && Math.abs(value) >= 1000);
}

/** "2.9" + "m/s" → "2.9 m/s"; "8%" and "36.6°" without the space. */
export function withUnit(number: string, unitText: string, direction?: string): string {
  const unit = prettyUnit(unitText);
  const joined = !unit ? number : /^(?:%|°|\^)/.test(unitText) ? `${number}${unit}` : `${number} ${unit}`;
  return direction ? `${joined} ${direction}` : joined;
}

/** Book notation tidied for display: superscripts, degree signs, no space after a unary minus. */
export function prettyText(text: string): string {
  return prettyMath(text)
    .replace(/\^′/g, "′")
    .replace(/(10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)(?=[A-Za-z])/g, "$1 ")
    .replace(/\^(?=[\s)=]|$)/g, "")
    .replace(/([(=]\s*|^)[−–-]\s+(?=\d)/g, "$1−")
    .replace(/\s{2,}/g, " ")
    .trim();
}
