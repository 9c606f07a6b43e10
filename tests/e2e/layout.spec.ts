import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { seriousViolations } from "./pages/a11y";
import { ADMIN, LoginPage, TEACHER } from "./pages/login.page";

/**
 * Every page at a phone size and at a laptop size: nothing wider than the screen, no serious
 * accessibility violation, and a screenshot of each committed under docs/screenshots for review
 * (PAPERWISE_SCREENSHOTS=docs/screenshots writes them there; otherwise they go to test output).
 */
const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 900 },
] as const;

/** Elements that stick out past the right edge of the screen, named so a failure says which. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide: string[] = [];
    for (const el of Array.from(document.querySelectorAll("body *"))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1) continue;
      // Inside a horizontal scroller (a wide table in its own frame) is fine; the page is not moved.
      let scroller = el.parentElement;
      let contained = false;
      while (scroller && scroller !== document.body) {
        const style = getComputedStyle(scroller);
        if (
          /(auto|scroll|hidden)/.test(style.overflowX) &&
          scroller.getBoundingClientRect().right <= width + 1
        ) {
          contained = true;
          break;
        }
        scroller = scroller.parentElement;
      }
      if (contained) continue;
      const id = el.getAttribute("data-testid") ?? el.id;
      wide.push(`${el.tagName.toLowerCase()}${id ? `#${id}` : ""} right=${Math.round(box.right)}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8) };
  });
}

async function shoot(page: Page, name: string, testInfo: import("@playwright/test").TestInfo) {
  const dir = process.env.PAPERWISE_SCREENSHOTS;
  const file = dir ? path.resolve(dir, `${name}.png`) : testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
}

const TEACHER_PAGES = [
  { path: "/", ready: "Questions builder", name: "questions" },
  { path: "/papers", ready: "Question papers", name: "papers" },
  { path: "/library", ready: "Resource library", name: "library" },
  { path: "/settings/api", ready: "API access", name: "api-tokens" },
];

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("the skip link is the first Tab stop and moves the focus to the page", async ({ page }) => {
      const login = new LoginPage(page);
      await login.goto();
      await login.signIn(TEACHER.email, TEACHER.password);
      await expect(page.getByTestId("user-role")).toBeVisible();
      await page.keyboard.press("Tab");
      const skip = page.getByTestId("skip-link");
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await page.keyboard.press("Enter");
      await expect(page.locator("main#main")).toBeFocused();
    });

    test("the sign-in page fits and has no serious accessibility violation", async ({ page }, testInfo) => {
      await new LoginPage(page).goto();
      await expect(page.getByTestId("login-submit")).toBeVisible();
      expect(await overflow(page)).toMatchObject({ wide: [] });
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, `${size.name}-login`, testInfo);
    });

    test("every teacher page fits the screen, every action is reachable, axe is clean", async ({
      page,
    }, testInfo) => {
      const login = new LoginPage(page);
      await login.goto();
      await login.signIn(TEACHER.email, TEACHER.password);
      await expect(page.getByTestId("user-role")).toBeVisible();
      for (const p of TEACHER_PAGES) {
        await page.goto(p.path);
        await expect(page.getByRole("heading", { name: p.ready, exact: true }).first()).toBeVisible();
        await page.waitForLoadState("networkidle");
        const o = await overflow(page);
        expect(o.wide, `${p.path} at ${size.name}`).toEqual([]);
        expect(o.scrollWidth, `${p.path} scroll width at ${size.name}`).toBeLessThanOrEqual(o.width);
        await expect(page.getByTestId("sign-out")).toBeInViewport();
        expect(await seriousViolations(page), p.path).toEqual([]);
        await shoot(page, `${size.name}-${p.name}`, testInfo);
      }
      // View source: a ready Markdown chapter opened at its third chunk.
      const list = (await (await page.request.get("/api/resources?status=ready&limit=100")).json()) as {
        items: { documentId: string | null; chunkCount: number | null }[];
      };
      const doc = list.items.find((i) => i.documentId && (i.chunkCount ?? 0) >= 3);
      expect(doc, "a ready resource to view").toBeDefined();
      await page.goto(`/sources/${doc?.documentId}?chunk=2`);
      await expect(page.getByTestId("source-cited")).toBeVisible();
      await page.waitForLoadState("networkidle");
      const so = await overflow(page);
      expect(so.wide, `source view at ${size.name}`).toEqual([]);
      expect(await seriousViolations(page), "source view").toEqual([]);
      await shoot(page, `${size.name}-source`, testInfo);
      // The paper builder, on a new paper made from the 80-mark template with the form's defaults.
      await page.goto("/papers");
      await page.locator("#paper-title").fill(`Layout check ${size.name}`);
      await page.locator("#paper-board").selectOption("OpenStax");
      await page.locator("#paper-grade").selectOption("11");
      await page.locator("#paper-subject").selectOption("Biology");
      await page.getByTestId("create-paper").click();
      await expect(page).toHaveURL(/\/papers\/[0-9a-f-]{36}$/);
      await expect(page.locator("#blueprint-title")).toBeVisible();
      await page.waitForLoadState("networkidle");
      const o = await overflow(page);
      expect(o.wide, `paper builder at ${size.name}`).toEqual([]);
      await expect(page.getByTestId("sign-out")).toBeInViewport();
      expect(await seriousViolations(page), "paper builder").toEqual([]);
      await shoot(page, `${size.name}-paper-builder`, testInfo);
    });

    test("the admin's pages fit the screen and axe is clean", async ({ page }, testInfo) => {
      const login = new LoginPage(page);
      await login.goto();
      await login.signIn(ADMIN.email, ADMIN.password);
      await expect(page.getByTestId("user-role")).toBeVisible();
      for (const p of [
        { path: "/settings/users", ready: "Users", name: "users" },
        { path: "/library", ready: "Resource library", name: "library-admin" },
        { path: "/api-reference", ready: "API reference", name: "api-reference" },
      ]) {
        await page.goto(p.path);
        await expect(page.getByRole("heading", { name: p.ready, exact: true }).first()).toBeVisible();
        await page.waitForLoadState("networkidle");
        const o = await overflow(page);
        expect(o.wide, `${p.path} at ${size.name}`).toEqual([]);
        await expect(page.getByTestId("sign-out")).toBeInViewport();
        expect(await seriousViolations(page), p.path).toEqual([]);
        await shoot(page, `${size.name}-${p.name}`, testInfo);
      }
    });
  });
}
