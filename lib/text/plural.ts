/**
 * A count with its noun in the right number: "1 question", "2 questions", "0 marks" (never
 * "1 questions" or "question(s)"). English only; pass the plural for an irregular noun
 * (`plural(n, "child", "children")`). Safe on the client and the server.
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
