import { expect, test } from "@playwright/test";
import { BuilderPage } from "./pages/builder.page";
import { LoginPage, TEACHER } from "./pages/login.page";

test.beforeEach(async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(TEACHER.email, TEACHER.password);
  await expect(page.getByTestId("user-role")).toBeVisible();
});

test("an out-of-scope query shows the empty state with the reason and the advice, once", async ({
  page,
}, testInfo) => {
  const builder = new BuilderPage(page);
  await builder.pickScope("OpenStax", "11", "Physics");
  await page.getByTestId("query-input").fill("xylophone zebra quasar cryptocurrency");
  await page.getByTestId("retrieve").click();
  const empty = page.getByTestId("results-empty");
  await expect(empty).toBeVisible();
  await expect(page.getByTestId("results-refusal")).toContainText("scope");
  await expect(page.getByTestId("results-advice")).toContainText("Remove the chapter filter");
  await expect(page.getByTestId("results-advice")).toContainText("Enhance");
  await expect(empty).toHaveCount(1);
  await expect(builder.results()).toHaveCount(0);
  await expect(page.getByTestId("use-context")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("out-of-scope.png"), fullPage: true });
});

test("follow-ups build on the session: plan, resolved query, exclusion, clear", async ({
  page,
}, testInfo) => {
  const builder = new BuilderPage(page);
  await builder.pickScope("OpenStax", "11", "Biology");
  await page.getByTestId("query-input").fill("photosynthesis");
  await page.getByTestId("retrieve").click();
  await expect(builder.results()).toHaveCount(8);
  await expect(page.getByTestId("retrieval-plan")).toContainText("How this was searched");
  await expect(page.getByTestId("session-turn")).toHaveCount(1);

  await page.getByTestId("query-input").fill("more on the light reactions");
  await page.getByTestId("retrieve").click();
  await expect(page.getByTestId("session-turn")).toHaveCount(2);
  await expect(page.getByTestId("session-turns")).toContainText("read as");
  await expect(page.getByTestId("session-followup")).toContainText("light reactions");
  await expect(builder.results().first()).toContainText(/light/i);
  await page.getByTestId("retrieval-plan").locator("summary").click();
  await expect(page.getByTestId("plan-probe").first()).toContainText("your query");

  await page.getByTestId("query-input").fill("not the calvin cycle");
  await page.getByTestId("retrieve").click();
  await expect(page.getByTestId("session-turn")).toHaveCount(3);
  await expect(page.getByTestId("session-turns")).toContainText("leaving out calvin cycle");
  await expect(builder.results().filter({ hasText: /› The Calvin Cycle/ })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("session.png"), fullPage: true });

  await page.getByTestId("session-clear").click();
  await expect(page.getByTestId("session")).toHaveCount(0);
});
