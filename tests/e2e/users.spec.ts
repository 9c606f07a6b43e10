import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./pages/a11y";
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

test("an admin revokes a teacher's token, disables and re-enables them, then deletes them with their data transferred", async ({
  page,
  playwright,
}) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(ADMIN.email, ADMIN.password);
  await expect(page.getByTestId("user-role")).toHaveText("Curriculum admin");
  const users = new UsersPage(page);
  await users.goto();
  const email = `leaver.${Date.now()}@school.example`;
  const password = await users.add(email, "teacher");
  await expect(users.row(email)).toBeVisible();

  // The teacher signs in through the API and makes a token, as an integration would.
  const api = await playwright.request.newContext({ baseURL: page.url().replace(/\/settings.*$/, "") });
  const signedIn = await api.post("/api/auth/login", {
    data: { email, password },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(signedIn.status()).toBe(200);
  const bearer = { authorization: `Bearer ${(await signedIn.json()).accessToken}` };
  const made = await api.post("/api/tokens", {
    data: { name: "LMS", scopes: ["papers:read"] },
    headers: bearer,
  });
  expect(made.status()).toBe(201);
  const token = { authorization: `Bearer ${(await made.json()).token}` };
  expect((await api.get("/api/auth/me", { headers: token })).status()).toBe(200);

  // Tokens: listed without the secret, revoked through a dialog.
  const tokens = await users.tokens(email);
  await expect(tokens).toHaveCount(1);
  await expect(tokens.first()).toContainText("expires");
  await tokens.first().getByTestId("user-token-revoke").click();
  const revokeDialog = page.getByTestId("confirm-dialog");
  await expect(revokeDialog).toContainText("Revoke the token");
  await revokeDialog.getByTestId("confirm-action").click();
  await expect(tokens.first()).toContainText("revoked");
  expect((await api.get("/api/auth/me", { headers: token })).status()).toBe(401);

  // Disable: a dialog first (Cancel changes nothing), then the session is refused.
  let dialog = await users.open(email, "user-disable");
  await dialog.getByTestId("confirm-cancel").click();
  await expect(users.row(email).getByTestId("user-disabled")).toHaveCount(0);
  dialog = await users.open(email, "user-disable");
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByTestId("confirm-action").click();
  await expect(users.row(email).getByTestId("user-disabled")).toBeVisible();
  await expect(page.getByTestId("users-done")).toContainText("1 session");
  expect((await api.get("/api/auth/me", { headers: bearer })).status()).toBe(401);
  await users.row(email).getByTestId("user-enable").click();
  await expect(users.row(email).getByTestId("user-disabled")).toHaveCount(0);

  // Delete: the action waits for a choice; transfer to the admin.
  dialog = await users.open(email, "user-delete");
  await expect(dialog.getByTestId("confirm-action")).toBeDisabled();
  await dialog.getByTestId("delete-transfer-to").selectOption({ label: ADMIN.email });
  await expect(dialog.getByTestId("confirm-action")).toBeEnabled();
  await dialog.getByTestId("confirm-action").click();
  await expect(page.getByTestId("users-done")).toContainText(`${email} is deleted`);
  await expect(page.getByTestId("users-done")).toContainText(`moved to ${ADMIN.email}`);
  await expect(users.row(email)).toHaveCount(0);
  // Your own row offers neither.
  await expect(users.row(ADMIN.email).getByTestId("user-delete")).toHaveCount(0);
  await expect(users.row(ADMIN.email).getByTestId("user-disable")).toHaveCount(0);
  await api.dispose();
});
