import path from "node:path";
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { seriousViolations } from "./pages/a11y";
import { BuilderPage } from "./pages/builder.page";
import { LoginPage, TEACHER } from "./pages/login.page";

// Issue 29 items 1–2 at a phone size and a laptop size: the scope's Resource subset (picked with
// the keyboard, sent as the search's resources, kept in the URL) and Recent sets (a generated set
// reopened after a reload, after Back from Papers and from the list, with its review state).

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 900 },
] as const;

async function shoot(page: Page, name: string, testInfo: TestInfo) {
  const dir = process.env.PAPERWISE_SCREENSHOTS;
  const file = dir ? path.resolve(dir, `${name}.png`) : testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
}

async function noSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, "page wider than the screen").toBeLessThanOrEqual(client);
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test.beforeEach(async ({ page }) => {
      const login = new LoginPage(page);
      await login.goto();
      await login.signIn(TEACHER.email, TEACHER.password);
      await expect(page.getByTestId("user-role")).toBeVisible();
    });

    test("resource subset: pick chapters with the keyboard, search only them, kept on reload", async ({
      page,
    }, testInfo) => {
      const builder = new BuilderPage(page);
      await page.goto("/");
      await builder.pickScope("OpenStax", "11", "Biology");
      const picker = page.getByTestId("resource-subset");
      const summary = page.getByTestId("resource-subset-summary");
      await expect(summary).toHaveText("All 3 resources");
      // Open the disclosure and untick chapters 4 and 5 from the keyboard.
      await picker.locator("summary").focus();
      await page.keyboard.press("Enter");
      const option = (label: RegExp) => picker.getByRole("checkbox", { name: label });
      await expect(option(/Ch 4 ·/)).toBeChecked();
      await option(/Ch 4 ·/).focus();
      await page.keyboard.press("Space");
      await expect(summary).toHaveText("2 of 3 resources · chapters 5, 8");
      // The book's own box shows the mixed choice.
      await expect(option(/^Biology 2e$/)).toHaveAttribute("aria-checked", "mixed");
      await page.keyboard.press("Tab");
      await expect(option(/Ch 5 ·/)).toBeFocused();
      await page.keyboard.press("Space");
      await expect(summary).toHaveText("1 of 3 resources · chapter 8");
      await noSidewaysScroll(page);
      expect(await seriousViolations(page), "resource subset").toEqual([]);
      await shoot(page, `${size.name}-resource-subset`, testInfo);

      // Nothing ticked: Retrieve says why.
      await option(/Ch 8 ·/).click();
      await expect(summary).toHaveText("No resources chosen");
      await page.getByTestId("query-input").fill("light reactions photosystem");
      await expect(page.getByTestId("retrieve")).toBeDisabled();
      await expect(page.getByTestId("retrieve-hint")).toContainText("Tick at least one resource");
      await option(/Ch 8 ·/).click();

      const request = page.waitForRequest((r) => r.url().endsWith("/api/retrieval/query"));
      await page.getByTestId("retrieve").click();
      const sent = (await request).postDataJSON() as { filters: { documentIds?: string[] } };
      expect(sent.filters.documentIds).toHaveLength(1);
      await expect(builder.results().first()).toBeVisible();
      for (const title of await page.getByTestId("result-title").allTextContents())
        expect(title).toContain("Ch 8");
      expect(page.url()).toContain("res=");

      // One Bloom choice (item 11): what the blueprint leaves out, the retrieval settings leave out.
      await page.getByTestId("use-context").click();
      await page
        .getByRole("group", { name: /Bloom levels \(spread evenly\)/ })
        .getByRole("checkbox", { name: "Create" })
        .uncheck();
      await page.getByRole("button", { name: /Back to results/ }).click();
      await page.getByTestId("advanced").locator("summary").click();
      await expect(page.locator("#bloom-Create")).toHaveAttribute("data-state", "unchecked");
      await expect(page.locator("#bloom-Evaluate")).toHaveAttribute("data-state", "checked");
      await page.getByTestId("use-context").click();
      await expect(
        page
          .getByRole("group", { name: /Bloom levels \(spread evenly\)/ })
          .getByRole("checkbox", { name: "Create" }),
      ).not.toBeChecked();
      await page.getByRole("button", { name: /Back to results/ }).click();

      // A reload keeps the subset (and the query) from the URL.
      await page.reload();
      await expect(page.getByTestId("resource-subset-summary")).toHaveText("1 of 3 resources · chapter 8");
      await expect(page.getByTestId("query-input")).toHaveValue("light reactions photosystem");
    });

    test("recent sets: a set survives a reload, Back from Papers and the Questions link", async ({
      page,
    }, testInfo) => {
      const builder = new BuilderPage(page);
      await page.goto("/");
      await builder.pickScope("OpenStax", "11", "Biology");
      const topic = `membrane transport ${size.name}`;
      await page.getByTestId("query-input").fill(topic);
      await page.getByTestId("retrieve").click();
      await expect(builder.results().first()).toBeVisible();
      await page.getByTestId("use-context").click();
      await page.getByTestId("count-mcq").fill("2");
      await page.getByTestId("count-short").fill("0");
      await page.getByTestId("count-long").fill("0");
      await page.getByTestId("generate").click();
      await expect(page.getByTestId("set-saved")).toBeVisible({ timeout: 30_000 });
      const card = builder.questionCards().first();
      await expect(card).toHaveAttribute("data-status", "final");
      const saved = page.waitForResponse(
        (r) => r.url().includes("/api/questions/") && r.request().method() === "PATCH",
      );
      await card.getByTestId("approve").click();
      expect((await saved).status()).toBe(200);
      await expect(card.getByTestId("approve")).toHaveAttribute("aria-pressed", "true");
      await expect(page).toHaveURL(/[?&]set=[0-9a-f-]{36}/);

      // A reload reopens the set: its cards, the approval, its context.
      await page.reload();
      await expect(builder.questionCards().first()).toBeVisible();
      await expect(builder.questionCards().first().getByTestId("approve")).toHaveAttribute(
        "aria-pressed",
        "true",
      );
      await expect(page.getByTestId("context-bar")).toContainText("set from");

      // Papers, then the browser's Back: the same set.
      await page.getByRole("link", { name: "Papers", exact: true }).click();
      await expect(page).toHaveURL(/\/papers/);
      await page.goBack();
      await expect(builder.questionCards().first().getByTestId("approve")).toHaveAttribute(
        "aria-pressed",
        "true",
      );
      // Back to results: the results it was made from.
      await page.getByRole("button", { name: /Back to results/ }).click();
      await expect(builder.results().first()).toBeVisible();

      // The Questions link does not lose the set: it is in Recent sets, with its review state.
      await page.getByRole("link", { name: "Questions", exact: true }).click();
      const recent = page.getByTestId("recent-set").filter({ hasText: topic });
      await expect(recent).toHaveCount(1);
      await expect(recent.getByTestId("recent-set-counts")).toContainText("1 approved");
      await noSidewaysScroll(page);
      expect(await seriousViolations(page), "recent sets").toEqual([]);
      await shoot(page, `${size.name}-recent-sets`, testInfo);
      await recent.getByRole("button", { name: /^Open the set/ }).click();
      await expect(builder.questionCards().first().getByTestId("approve")).toHaveAttribute(
        "aria-pressed",
        "true",
      );
      expect(await seriousViolations(page), "reopened set").toEqual([]);
      await shoot(page, `${size.name}-reopened-set`, testInfo);

      // A fresh Questions page offers the set just made.
      await page.goto("/");
      await expect(page.getByTestId("latest-set-offer")).toContainText("was saved");
      await noSidewaysScroll(page);
      expect(await seriousViolations(page), "offer").toEqual([]);
      await shoot(page, `${size.name}-set-offer`, testInfo);
      await page.getByTestId("latest-set-offer").getByRole("button", { name: "Open it" }).click();
      await expect(builder.questionCards().first().getByTestId("approve")).toHaveAttribute(
        "aria-pressed",
        "true",
      );
    });
  });
}
