import { expect, test } from "@playwright/test";
import { BuilderPage } from "./pages/builder.page";
import { LoginPage, TEACHER } from "./pages/login.page";

// What a teacher sees in the Retrieve panel's advanced settings and template (issue 16).

test.beforeEach(async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(TEACHER.email, TEACHER.password);
  await expect(page.getByTestId("user-role")).toBeVisible();
});

test("rerank off is sent, α reads auto, a Top K of 0 is explained, the MCQ template sets the blueprint", async ({
  page,
}) => {
  const builder = new BuilderPage(page);
  await builder.pickScope("OpenStax", "11", "Biology");
  await page.getByTestId("filter-chapter").selectOption("4");
  await page.getByTestId("templates").selectOption({ index: 1 });
  await expect(page.getByTestId("query-input")).toHaveValue("Generate 10 MCQs for Chapter 4");

  await page.getByTestId("advanced").locator("summary").click();
  const alpha = page.getByRole("slider", { name: "Balance between exact words and meaning" });
  await expect(alpha).toHaveAttribute("aria-valuetext", /^auto/);

  // Top K 0 is refused next to the field, and the last valid value is what is searched with.
  await page.locator("#topk").fill("0");
  await expect(page.getByTestId("topk-error")).toContainText("at least 1");
  await expect(page.getByTestId("topk-error")).toContainText("Searching with 8");

  await page.getByTestId("rerank-toggle").click();
  await expect(page.getByTestId("rerank-toggle")).toHaveAttribute("data-state", "unchecked");
  const sent = page.waitForRequest("**/api/retrieval/query");
  await page.getByTestId("retrieve").click();
  const body = (await sent).postDataJSON() as { enableRerank?: boolean; topK?: number; alpha?: number };
  expect(body.enableRerank).toBe(false);
  expect(body.topK).toBe(8);
  expect(body.alpha).toBeUndefined();
  await expect(builder.results().first()).toBeVisible();
  // After an answer the automatic α shows the classifier's value, still marked auto.
  await expect(alpha).toHaveAttribute("aria-valuetext", /^auto \(\d\.\d\d\)$/);

  // Passages used as context: the blueprint starts at the template's 10 MCQs and nothing else.
  await page.getByTestId("use-context").click();
  await expect(page.getByTestId("count-mcq")).toHaveValue("10");
  await expect(page.getByTestId("count-short")).toHaveValue("0");
  await expect(page.getByTestId("count-long")).toHaveValue("0");
});

test("enhance highlights the added words and the enhanced query wraps in a text box", async ({ page }) => {
  const builder = new BuilderPage(page);
  await builder.pickScope("OpenStax", "11", "Biology");
  await page.getByTestId("filter-chapter").selectOption("4");
  await page.getByTestId("query-input").fill("lysosomes vacuoles organelles");
  await page.getByTestId("enhance").click();
  await expect(page.getByTestId("enhance-panel")).toBeVisible();
  const added = page.getByTestId("enhance-added");
  await expect(added.first()).toBeVisible();
  // Every highlighted word is one the teacher did not type.
  for (const text of await added.allTextContents())
    for (const word of text.trim().split(/\s+/))
      expect(["lysosomes", "vacuoles", "organelles"]).not.toContain(word.toLowerCase());
  await expect(page.getByTestId("enhance-diff")).toContainText("lysosomes");
  await expect(page.getByTestId("enhance-final")).toHaveJSProperty("tagName", "TEXTAREA");
  // Switching an added term off removes it from the highlighted words too.
  const before = (await added.allTextContents()).join(" ");
  await page.getByTestId("enhance-chip").first().click();
  await expect.poll(async () => (await added.allTextContents()).join(" ")).not.toBe(before);
});

test("View source opens a text source at the cited passage, highlighted", async ({ page }) => {
  const builder = new BuilderPage(page);
  await builder.pickScope("OpenStax", "11", "Biology");
  await page.getByTestId("filter-chapter").selectOption("4");
  await page.getByTestId("query-input").fill("lysosomes vacuoles organelles");
  await page.getByTestId("retrieve").click();
  const first = builder.results().first();
  await expect(first).toBeVisible();
  const link = first.getByTestId("view-source");
  // The OpenStax chapters are Markdown: no page, so the source view at the chunk.
  const href = (await link.getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/sources\/[0-9a-f-]{36}\?chunk=\d+$/);
  const passage = (await first.getByTestId("result-chunk").textContent()) ?? "";
  await page.goto(href);
  const cited = page.getByTestId("source-cited");
  await expect(cited).toBeVisible();
  await expect(cited).toBeInViewport();
  await expect(cited).toHaveAttribute("aria-current", "location");
  await expect(page.getByTestId("source-title")).not.toBeEmpty();
  await expect(page.getByTestId("source-chunk").first()).toBeVisible();
  // The highlighted chunk is the one the result card cited.
  const chunkNo = /chunk (\d+)/.exec(passage)?.[1];
  expect(href.endsWith(`chunk=${chunkNo}`)).toBe(true);
});
