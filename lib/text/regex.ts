/** `text` as a literal inside a regular expression: every metacharacter escaped. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
