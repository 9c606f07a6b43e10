import { expect, test } from "@playwright/test";
import { seriousViolations } from "./pages/a11y";
import { LoginPage, TEACHER } from "./pages/login.page";

test("an unauthenticated visit is sent to the login page", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
});

test("a wrong password shows a readable error", async ({ page }, testInfo) => {
  const login = new LoginPage(page);
  await login.goto();
  expect(await seriousViolations(page)).toEqual([]);
  await login.signIn(TEACHER.email, "not-the-password");
  await expect(login.error()).toHaveText("Wrong email or password");
  await page.screenshot({ path: testInfo.outputPath("login-error.png"), fullPage: true });
});

test("a teacher signs in, sees the app with the demo curriculum, and signs out", async ({
  page,
}, testInfo) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(TEACHER.email, TEACHER.password);
  await expect(page.getByTestId("user-role")).toHaveText("Teacher");
  await expect(page.getByRole("heading", { name: "Questions builder" })).toBeVisible();
  await expect(page.getByTestId("filter-board").locator("option", { hasText: "OpenStax" })).toHaveCount(1);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("shell.png"), fullPage: true });
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/login/);
});
