import { expect, type Page } from "@playwright/test";

/** The paper builder (/papers/:id). */
export class PaperPage {
  constructor(private readonly page: Page) {}

  items() {
    return this.page.getByTestId("paper-item");
  }

  panel() {
    return this.page.getByTestId("blueprint-panel");
  }

  async waitSaved() {
    await expect(this.page.getByTestId("save-state")).toHaveAttribute("data-state", "saved");
  }

  /** Item texts in printed order. */
  async texts(): Promise<string[]> {
    return (await this.page.getByTestId("item-text").allTextContents()).map((t) => t.trim());
  }
}
