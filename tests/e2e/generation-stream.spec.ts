import { expect, type Page, test } from "@playwright/test";
import { BuilderPage } from "./pages/builder.page";
import { LoginPage, TEACHER } from "./pages/login.page";

/**
 * The e2e server is offline; these tests ask it (by a header only the e2e server honours) for a
 * slow streaming test model for their questions: about 150 characters a second after 300 ms, so
 * a card can be watched, photographed and stopped mid-question. The test model's drafts lean on
 * "the passage" and rest on facts the passages do not hold, which the quality gate refuses, so each
 * card also shows its draft replaced: by the rewrite, then by the offline generator's question
 * (which says why it was written offline) or the slot's reason.
 */
async function startGenerating(page: Page, mcqs: number) {
  await page.route("**/api/generation", (route) =>
    route.continue({ headers: { ...route.request().headers(), "x-paperwise-e2e-model": "slow" } }),
  );
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
  await page.getByTestId("count-mcq").fill(String(mcqs));
  await page.getByTestId("count-short").fill("0");
  await page.getByTestId("count-long").fill("0");
  await page.getByTestId("generate").click();
  return builder;
}

test("a card shows the question as the model writes it, as a draft, until the gate's decision replaces it", async ({
  page,
}, testInfo) => {
  const builder = await startGenerating(page, 3);
  const first = builder.questionCards().first();
  await expect(builder.questionCards()).toHaveCount(3);
  // Mid-question: part of the stem is there, marked as a draft, and nothing can be done with it yet.
  await expect(first.getByTestId("draft-prompt")).toContainText("According to");
  await page.getByTestId("questions").screenshot({ path: testInfo.outputPath("card-mid-question.png") });
  const options = first.getByTestId("draft-options");
  const before = (await options.boundingBox())!.height;
  await expect(first).toHaveAttribute("data-status", "draft");
  await expect(first.getByTestId("draft-badge")).toHaveText("draft");
  for (const control of ["reveal-answer", "why", "approve", "edit", "reject"])
    await expect(first.getByTestId(control)).toBeDisabled();
  // Options fill rows that were already there: the card does not jump as they arrive.
  await expect(first.getByTestId("draft-option")).toHaveCount(4);
  expect(Math.abs((await options.boundingBox())!.height - before)).toBeLessThanOrEqual(2);
  await page.screenshot({ path: testInfo.outputPath("card-options-written.png"), fullPage: true });
  // The gate refused the draft: the card is rewritten in place, still a draft.
  await expect(first.getByTestId("draft-badge")).toHaveText("draft · rewrite", { timeout: 20_000 });
  await expect(first.getByTestId("approve")).toBeDisabled();

  await expect(page.getByTestId("set-saved")).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[data-testid="question-card"][data-status="draft"]')).toHaveCount(0);
  await expect(page.locator('[data-testid="question-card"][data-status="generating"]')).toHaveCount(0);
  // Every card ends accepted (the offline generator's question) or empty with its reason; the
  // refused drafts are nowhere.
  await expect(page.getByTestId("questions")).not.toContainText("According to the passage");
  const finals = page.locator('[data-testid="question-card"][data-status="final"]');
  const failed = page.locator('[data-testid="question-card"][data-status="failed"]');
  expect((await finals.count()) + (await failed.count())).toBe(3);
  if ((await finals.count()) > 0) {
    await expect(finals.first().getByTestId("approve")).toBeEnabled();
    await expect(finals.first().getByTestId("offline-reason")).toContainText(
      "Written offline because the model's draft was refused by the quality gate",
    );
  }
  await page.screenshot({ path: testInfo.outputPath("cards-final.png"), fullPage: true });
});

/** The id of the teacher's newest saved set (or null), read through the API as the page's session. */
async function newestSetId(page: Page): Promise<string | null> {
  const res = await page.request.get("/api/question-sets?limit=1");
  expect(res.ok()).toBe(true);
  const { sets } = (await res.json()) as { sets: { id: string }[] };
  return sets[0]?.id ?? null;
}

for (const size of [
  { name: "390×844", width: 390, height: 844 },
  { name: "1366×900", width: 1366, height: 900 },
]) {
  test.describe(`at ${size.name}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("a reload while the model is writing keeps the set: the server finishes it and the builder offers it", async ({
      page,
    }, testInfo) => {
      const builder = await startGenerating(page, 2);
      const before = await newestSetId(page);
      await expect(builder.questionCards().first().getByTestId("draft-prompt")).toContainText("According to");
      await page.reload();
      // The reader went away mid-question; the server goes on and saves the set.
      await expect.poll(() => newestSetId(page), { timeout: 60_000 }).not.toBe(before);
      await page.goto("/");
      await expect(page.getByTestId("latest-set-offer")).toContainText("was saved");
      await page.screenshot({ path: testInfo.outputPath("reload-offer.png"), fullPage: true });
      await page.getByTestId("latest-set-offer").getByRole("button", { name: "Open it" }).click();
      await expect(page).toHaveURL(/[?&]set=/);
    });
  });
}

test("Stop ends a generation while the model is writing", async ({ page }, testInfo) => {
  const builder = await startGenerating(page, 3);
  const before = await newestSetId(page);
  const first = builder.questionCards().first();
  await expect(first.getByTestId("draft-prompt")).toContainText("According to");
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(first).toHaveAttribute("data-status", "stopped");
  await expect(first.getByTestId("approve")).toBeDisabled();
  await expect(page.getByTestId("generate")).toBeEnabled();
  // Nothing was saved for a stopped set, and no card turns final afterwards.
  await page.waitForTimeout(1_500);
  await expect(page.getByTestId("set-saved")).toHaveCount(0);
  await expect(page.locator('[data-testid="question-card"][data-status="final"]')).toHaveCount(0);
  // Stop is not a dropped connection: the server saved nothing either.
  await page.waitForTimeout(3_000);
  expect(await newestSetId(page)).toBe(before);
  await page.screenshot({ path: testInfo.outputPath("stopped.png"), fullPage: true });
});
