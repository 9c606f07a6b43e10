import type { Page } from "@playwright/test";

export class LoginPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/login");
  }

  async signIn(email: string, password: string) {
    await this.page.getByTestId("login-email").fill(email);
    await this.page.getByTestId("login-password").fill(password);
    await this.page.getByTestId("login-submit").click();
  }

  error() {
    return this.page.getByTestId("login-error");
  }
}

export const TEACHER = { email: "teacher@paperwise.local", password: "paperwise-teacher" };
export const ADMIN = { email: "admin@paperwise.local", password: "paperwise-admin" };
