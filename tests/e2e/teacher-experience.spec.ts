import path from "node:path";
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { seriousViolations } from "./pages/a11y";
import { BuilderPage } from "./pages/builder.page";
import { LoginPage, TEACHER } from "./pages/login.page";

// Issue 29 (teacher experience, round 3) at a phone size and a laptop size: results in the order
// of their relevance with weak ones unticked, teacher words with the technical ones under
// "Details", clean snippets, focus that follows Retrieve / Use selected / Generate, axe clean on
// every step, single-click Approve and Add to paper, no favicon 404.

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 900 },
] as const;

async function shoot(page: Page, name: string, testInfo: TestInfo, fullPage = true) {
  const dir = process.env.PAPERWISE_SCREENSHOTS;
  const file = dir ? path.resolve(dir, `${name}.png`) : testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage });
}

/** The words a teacher sees (closed "Details" hold the rest; innerText skips what is not shown). */
const visibleText = (page: Page, testId: string) =>
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point (closed details excluded)
  page.getByTestId(testId).innerText();

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test.beforeEach(async ({ page }) => {
      const login = new LoginPage(page);
      await login.goto();
      await login.signIn(TEACHER.email, TEACHER.password);
      await expect(page.getByTestId("user-role")).toBeVisible();
    });

    test("retrieve → use selected → generate: order, words, snippets, focus, axe", async ({
      page,
    }, testInfo) => {
      const notFound: string[] = [];
      page.on("response", (r) => {
        if (r.status() === 404) notFound.push(r.url());
      });
      const builder = new BuilderPage(page);
      await page.goto("/");
      await expect(page.getByTestId("filter-board")).toBeVisible();
      // A list with one choice comes chosen.
      const boards = await page.getByTestId("filter-board").locator("option").allTextContents();
      if (boards.length === 2) await expect(page.getByTestId("filter-board")).toHaveValue(boards[1] ?? "");
      await builder.pickScope("OpenStax", "11", "Biology");
      await page.getByTestId("filter-chapter").selectOption("4");
      // Retrieve is greyed out with a reason while the query is empty.
      await expect(page.getByTestId("retrieve")).toBeDisabled();
      await expect(page.getByTestId("retrieve-hint")).toContainText("Type what to search for");
      await page.getByTestId("query-input").fill("lysosomes vacuoles organelles");
      await expect(page.getByTestId("retrieve-hint")).toHaveCount(0);

      await page.getByTestId("advanced").locator("summary").click();
      const advanced = await visibleText(page, "advanced");
      expect(advanced).toContain("Passages to find");
      expect(advanced).not.toMatch(/Top K|Max tokens|α/);

      await page.getByTestId("retrieve").click();
      await expect(builder.results().first()).toBeVisible();
      // Focus moves to the results.
      await expect(page.getByTestId("results")).toBeFocused();

      // In the order of the relevance shown; ticked exactly when not weak (relevance ≥ 0.5).
      const cards = await builder.results().all();
      const relevance: number[] = [];
      for (const card of cards) {
        const r = Number(
          /relevance (\d\.\d\d)/.exec((await card.getByTestId("result-score").textContent()) ?? "")?.[1],
        );
        relevance.push(r);
        const ticked = (await card.getByTestId("result-select").getAttribute("data-state")) === "checked";
        expect(ticked, `relevance ${r}`).toBe(r >= 0.5);
        // Snippets: numbers whole, no image credit first, whole words at the end.
        const snippet = ((await card.locator("p.text-sm").textContent()) ?? "").trim();
        expect(snippet).not.toMatch(/\d\. \d/);
        expect(snippet).not.toMatch(/^\(?credit/i);
        expect(snippet).toMatch(/[.!?…"”’)]$/);
      }
      expect(relevance).toEqual([...relevance].sort((a, b) => b - a));

      // Teacher words; the engineer's numbers only under "Details".
      const results = await visibleText(page, "results");
      expect(results).not.toMatch(/type:|α|reranker|confidence|chunk \d/);
      expect(results).toMatch(/\d+ passages? found/);
      await page.getByTestId("results-details").locator("summary").click();
      await expect(page.getByTestId("results-details")).toContainText("reranker");
      expect(await seriousViolations(page), "results").toEqual([]);
      await shoot(page, `${size.name}-results`, testInfo);

      // Use selected → the focus is on the context the questions will use.
      await page.getByTestId("use-context").click();
      await expect(page.getByTestId("context-bar")).toBeFocused();
      await page.getByTestId("count-mcq").fill("2");
      await page.getByTestId("count-short").fill("0");
      await page.getByTestId("count-long").fill("0");
      await expect(page.getByTestId("generate")).toHaveText("Generate 2 questions");
      await page.getByTestId("count-mcq").fill("1");
      await expect(page.getByTestId("generate")).toHaveText("Generate 1 question");
      expect(await seriousViolations(page), "blueprint").toEqual([]);

      // Generate → the focus is on the generated set.
      await page.getByTestId("generate").click();
      await expect(page.getByTestId("questions")).toBeFocused();
      await expect(page.getByTestId("set-saved")).toBeVisible({ timeout: 30_000 });
      const card = builder.questionCards().first();
      await expect(card).toHaveAttribute("data-status", "final");
      // A double click approves once (it does not toggle back).
      await card.getByTestId("approve").dblclick();
      await expect(page.getByTestId("approved-badge")).toHaveCount(1);
      await expect(card.getByTestId("approve")).toHaveAttribute("aria-pressed", "true");
      expect(await seriousViolations(page), "generated set").toEqual([]);
      await shoot(page, `${size.name}-generated`, testInfo);

      // A double click on "Add 1 to paper" adds once and says so once, in the singular.
      const submit = page.getByTestId("add-to-paper-submit");
      await expect(submit).toHaveText("Add 1 to paper");
      await submit.dblclick();
      await expect(page.getByTestId("open-paper")).toBeVisible();
      await expect(page.getByText(/^1 question added to/)).toHaveCount(1);
      await expect(page.getByText(/question\(s\)/)).toHaveCount(0);

      expect(
        notFound.filter((u) => /favicon|icon/.test(u)),
        "icon requests answered 404",
      ).toEqual([]);
    });

    test("View source shows headings, not Markdown; the API page points to the in-app reference", async ({
      page,
    }, testInfo) => {
      const builder = new BuilderPage(page);
      await page.goto("/");
      await builder.pickScope("OpenStax", "11", "Biology");
      await page.getByTestId("filter-chapter").selectOption("4");
      await page.getByTestId("query-input").fill("lysosomes vacuoles organelles");
      await page.getByTestId("retrieve").click();
      const href = (await builder.results().first().getByTestId("view-source").getAttribute("href")) ?? "";
      await page.goto(href);
      await expect(page.getByTestId("source-cited")).toBeVisible();
      await expect(page.getByTestId("source-heading").first()).toBeVisible();
      expect(await page.locator("main").textContent()).not.toMatch(/(^|\n)\s*#{1,6} /);
      expect(await seriousViolations(page), "source view").toEqual([]);
      // The screen around the cited passage (the whole chapter is too long to look at).
      await shoot(page, `${size.name}-source-headings`, testInfo, false);

      await page.goto("/settings/api");
      await expect(page.getByTestId("api-reference-link")).toHaveAttribute("href", "/api-reference");
      await expect(page.locator("main")).not.toContainText("README");
    });
  });
}
