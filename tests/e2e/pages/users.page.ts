import type { Page } from "@playwright/test";

/** The admin's Users page (/settings/users). */
export class UsersPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/settings/users");
  }

  /** Adds an account with a generated password and returns that password as shown once. */
  async add(email: string, role: "teacher" | "admin"): Promise<string> {
    await this.page.getByTestId("user-email-input").fill(email);
    await this.page.getByTestId("user-role-input").selectOption(role);
    await this.page.getByTestId("user-add").click();
    return (await this.page.getByTestId("issued-password-value").textContent()) ?? "";
  }

  row(email: string) {
    return this.page.locator(`[data-testid="user-row"][data-email="${email}"]`);
  }

  async setRole(email: string, role: "teacher" | "admin") {
    await this.page.getByLabel(`Role of ${email}`).selectOption(role);
  }

  /** Opens an account's action's confirm dialog (disable, delete) and returns it. */
  async open(email: string, action: "user-disable" | "user-delete") {
    await this.row(email).getByTestId(action).click();
    return this.page.getByTestId("confirm-dialog");
  }

  /** The account's API tokens, listed under its row. */
  async tokens(email: string) {
    await this.row(email).getByTestId("user-tokens").click();
    return this.row(email).getByTestId("user-token");
  }
}
