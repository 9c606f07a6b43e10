import path from "node:path";
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { seriousViolations } from "./pages/a11y";
import { ADMIN, LoginPage } from "./pages/login.page";

// Issue 29 item 11 at a phone size and a laptop size: the Library pages past 25 rows, the banner
// after an upload follows its file to "ready", and the Users page names no terminal command.

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1366, height: 900 },
] as const;

async function shoot(page: Page, name: string, testInfo: TestInfo) {
  const dir = process.env.PAPERWISE_SCREENSHOTS;
  await page.screenshot({
    path: dir ? path.resolve(dir, `${name}.png`) : testInfo.outputPath(`${name}.png`),
    fullPage: true,
  });
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("Library paging, the upload banner, the Users page", async ({ page }, testInfo) => {
      test.setTimeout(180_000);
      const login = new LoginPage(page);
      await login.goto();
      await login.signIn(ADMIN.email, ADMIN.password);
      await expect(page.getByTestId("user-role")).toBeVisible();

      // More than 25 resources (small notes, unique per run so none is a duplicate).
      const have = ((await (await page.request.get("/api/resources?limit=500")).json()).items as unknown[])
        .length;
      for (let i = have; i < 27; i++) {
        const res = await page.request.post("/api/resources", {
          multipart: {
            board: "E2E",
            grade: "1",
            subject: "Paging",
            visibility: "private",
            file: {
              name: `paging-${size.name}-${i}.md`,
              mimeType: "text/markdown",
              buffer: Buffer.from(
                `# Note ${i}\n\nA short note ${i} for paging, ${size.name} ${Date.now()}.\n`,
              ),
            },
          },
        });
        expect(res.status()).toBeLessThan(300);
      }
      const total = ((await (await page.request.get("/api/resources?limit=500")).json()).items as unknown[])
        .length;
      expect(total).toBeGreaterThan(25);

      await page.goto("/library");
      await expect(page.getByTestId("library-page")).toHaveText(`1–25 of ${total}`);
      await expect(page.getByTestId("library-row")).toHaveCount(25);
      await page.getByTestId("library-next").click();
      await expect(page.getByTestId("library-page")).toHaveText(`26–${Math.min(50, total)} of ${total}`);
      await expect(page.getByTestId("library-row")).toHaveCount(Math.min(25, total - 25));

      // The banner follows the uploaded file: processing, then ready (not "being processed" forever).
      await page.getByTestId("upload-file").setInputFiles([
        {
          name: `banner-${size.name}-${Date.now()}.md`,
          mimeType: "text/markdown",
          buffer: Buffer.from(`# Banner\n\n## 1.1 Cells\n\nCells are the units of life (${Date.now()}).\n`),
        },
      ]);
      await page.getByTestId("upload-board").fill("E2E");
      await page.getByTestId("upload-grade").fill("1");
      await page.getByTestId("upload-subject").fill("Banner");
      await page.getByTestId("upload-submit").click();
      await expect(page.getByTestId("upload-done")).toBeVisible();
      await expect(page.getByTestId("upload-done")).toContainText("The file is ready", { timeout: 60_000 });
      await expect(page.getByTestId("upload-done")).not.toContainText("being processed");
      expect(await seriousViolations(page), "library").toEqual([]);
      await shoot(page, `${size.name}-library`, testInfo);

      await page.goto("/settings/users");
      await expect(page.locator("main")).toContainText(
        "add them, change their role or reset a password here",
      );
      await expect(page.locator("main")).not.toContainText("npm run");
    });
  });
}
