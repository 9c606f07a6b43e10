import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { ADMIN, LoginPage, TEACHER } from "./pages/login.page";
import { UsersPage } from "./pages/users.page";

test("an admin adds a teacher, who signs in with the password shown once; then makes them an admin", async ({
  page,
}, testInfo) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(ADMIN.email, ADMIN.password);
  await expect(page.getByTestId("user-role")).toHaveText("Curriculum admin");
  await page.getByRole("link", { name: "Users" }).click();
  const users = new UsersPage(page);
  await expect(users.row(TEACHER.email)).toBeVisible();

  const email = `new.teacher.${Date.now()}@school.example`;
  const password = await users.add(email, "teacher");
  expect(password).toMatch(/^[\w-]{16}$/);
  await expect(users.row(email)).toBeVisible();
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath("users.png"), fullPage: true });

  // Each sign-in waits for the page it needs: typing into a login form that is still on its way
  // (or a shell not yet signed in) races the navigation.
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/login/);
  await login.signIn(email, password);
  await expect(page.getByTestId("user-role")).toHaveText("Teacher");
  // Teachers have no Users page.
  await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/login/);

  await login.signIn(ADMIN.email, ADMIN.password);
  await expect(page.getByTestId("user-role")).toHaveText("Curriculum admin");
  await users.goto();
  await users.setRole(email, "admin");
  await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("admin");
  await page.reload();
  await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("admin");
});
