import { expect, test } from "@playwright/test";
import { BuilderPage } from "./pages/builder.page";
import { LoginPage, TEACHER } from "./pages/login.page";

/**
 * The e2e server runs offline, so the provider outage is played into the real generation
 * stream: the server's own frames pass through, plus the one `llm_unavailable` frame the
 * generator sends when the model provider stops responding (tests/integration/provider-outage.test.ts
 * checks that the server sends it exactly once per set).
 */
const NOTICE = "The model provider is not responding, so the offline generator is answering for this set.";

test("the builder says once, as a notice, that the offline generator answered for a silent provider", async ({
  page,
}, testInfo) => {
  await page.route("**/api/generation", async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    const frame = `data: ${JSON.stringify({ type: "data-error", data: { code: "llm_unavailable", message: NOTICE } })}\n\n`;
    const at = body.indexOf('data: {"type":"data-question"');
    await route.fulfill({ response, body: at < 0 ? body : body.slice(0, at) + frame + body.slice(at) });
  });
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(TEACHER.email, TEACHER.password);
  await expect(page.getByTestId("user-role")).toBeVisible();
  const builder = new BuilderPage(page);
  await builder.pickScope("OpenStax", "11", "Biology");
  await page.getByTestId("query-input").fill("light reactions chlorophyll");
  await page.getByTestId("retrieve").click();
  await expect(builder.results()).toHaveCount(8);
  await page.getByTestId("use-context").click();
  await page.getByTestId("count-mcq").fill("2");
  await page.getByTestId("count-short").fill("0");
  await page.getByTestId("count-long").fill("0");
  // Two recall MCQs (a third now tests the same fact: sentences that lean on context are no
  // longer material): what these passages carry offline (no equation, data or claim for the
  // higher levels), with the rest of their section as the empty slot's reason suggests, so the
  // notice is about the provider, not about empty slots.
  for (const level of ["Understand", "Apply", "Analyze", "Evaluate", "Create"])
    await page.getByRole("checkbox", { name: level, exact: true }).uncheck();
  await page.getByTestId("use-section").check();
  await page.getByTestId("generate").click();
  await expect(page.getByTestId("set-saved")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("provider-notice")).toHaveCount(1);
  await expect(page.getByTestId("provider-notice")).toHaveText(NOTICE);
  // A notice, not an error: the questions are there and usable.
  await expect(page.locator('[data-testid="question-card"][data-status="final"]')).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath("provider-notice.png"), fullPage: true });
});
