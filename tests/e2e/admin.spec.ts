import { expect, test } from "@playwright/test";
import { ADMIN, LoginPage } from "./pages/login.page";

test("an admin uploads a Markdown chapter, watches it reach ready, and deletes it", async ({
  page,
}, testInfo) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(ADMIN.email, ADMIN.password);
  await expect(page.getByTestId("user-role")).toHaveText("Curriculum admin");
  await page.getByRole("link", { name: "Library" }).click();
  await page.getByTestId("upload-file").setInputFiles({
    name: "forces.md",
    mimeType: "text/markdown",
    buffer: Buffer.from(
      "# Chapter 2: Forces\n\n## 2.1 Newton's first law\n\nAn object at rest stays at rest unless a net external force acts on it. Inertia is the tendency of a body to resist a change in motion.\n",
    ),
  });
  await page.getByTestId("upload-board").fill("State Board");
  await page.getByTestId("upload-grade").fill("9");
  await page.getByTestId("upload-subject").fill("Physics");
  await page.getByTestId("upload-submit").click();
  const row = page.getByTestId("library-row").filter({ hasText: "forces.md" });
  await expect(row.getByTestId("row-status")).toHaveText("ready", { timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath("library.png"), fullPage: true });
  page.once("dialog", (d) => d.accept());
  await row.getByTestId("row-delete").click();
  await expect(row).toHaveCount(0);
});
