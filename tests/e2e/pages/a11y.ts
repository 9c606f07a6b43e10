import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * axe's serious and critical violations on the page, each with the elements it found.
 *
 * A client-side navigation re-streams the page's metadata, so for a moment the document can be
 * without its <title> (CI once caught axe there: "document-title" on a reopened set, at one size
 * only). The check waits up to 3 s for a title first; a page that never gets one still fails.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page
    .waitForFunction(() => document.title.trim() !== "", undefined, { timeout: 3000 })
    .catch(() => {});
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}
