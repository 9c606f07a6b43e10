import type { Page } from "@playwright/test";

export class BuilderPage {
  constructor(private readonly page: Page) {}

  async pickScope(board: string, grade: string, subject: string) {
    await this.page.getByTestId("filter-board").selectOption(board);
    await this.page.getByTestId("filter-grade").selectOption(grade);
    await this.page.getByTestId("filter-subject").selectOption(subject);
  }

  results() {
    return this.page.getByTestId("result-item");
  }

  questionCards() {
    return this.page.getByTestId("question-card");
  }
}
