import { expect, test } from "@playwright/test";
import { makeDocx, makePdf } from "../support/make-fixtures";
import { ADMIN, LoginPage, TEACHER } from "./pages/login.page";

test("an admin uploads a PDF, a DOCX and a Markdown chapter, watches them reach ready, previews chunks, deletes one", async ({
  page,
}, testInfo) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(ADMIN.email, ADMIN.password);
  await expect(page.getByTestId("user-role")).toHaveText("Curriculum admin");
  await page.getByRole("link", { name: "Library" }).click();
  const pdf = await makePdf([
    [
      "Chapter 2: Forces",
      "",
      "2.1 Newton's First Law",
      "An object at rest stays at rest unless a net external force acts on it.",
    ],
    ["Inertia is the tendency of a body to resist changes in its motion. Mass is a measure of inertia."],
  ]);
  const docx = await makeDocx([
    { heading: 1, text: "Chapter 3: Motion" },
    { heading: 2, text: "3.1 Speed and velocity" },
    { paragraph: "Speed is the distance travelled per unit time. Velocity is speed in a given direction." },
  ]);
  await page.getByTestId("upload-file").setInputFiles([
    { name: "forces.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdf) },
    {
      name: "motion.docx",
      mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      buffer: Buffer.from(docx),
    },
    {
      name: "energy.md",
      mimeType: "text/markdown",
      buffer: Buffer.from(
        "# Chapter 4: Energy\n\n## 4.1 Work\n\nWork is done when a force moves an object through a distance.\n",
      ),
    },
  ]);
  await page.getByTestId("upload-board").fill("State Board");
  await page.getByTestId("upload-grade").fill("9");
  await page.getByTestId("upload-subject").fill("Physics");
  await page.getByTestId("upload-submit").click();
  for (const name of ["forces.pdf", "motion.docx", "energy.md"]) {
    const row = page.getByTestId("library-row").filter({ hasText: name });
    await expect(row.getByTestId("row-status")).toHaveText("ready", { timeout: 30_000 });
  }
  const pdfRow = page.getByTestId("library-row").filter({ hasText: "forces.pdf" });
  await pdfRow.getByTestId("row-preview").click();
  await expect(page.getByTestId("chunk-preview").first()).toContainText("p. 1");
  await page.screenshot({ path: testInfo.outputPath("library.png"), fullPage: true });
  const mdRow = page.getByTestId("library-row").filter({ hasText: "energy.md" });
  await mdRow.getByTestId("row-delete").click();
  // The in-app dialog (not the browser's confirm()): Cancel keeps the row, Delete removes it.
  await page.getByTestId("confirm-cancel").click();
  await expect(page.getByTestId("confirm-dialog")).toHaveCount(0);
  await expect(mdRow).toHaveCount(1);
  await mdRow.getByTestId("row-delete").click();
  await expect(page.getByTestId("confirm-dialog")).toContainText("energy");
  await page.getByTestId("confirm-ok").click();
  await expect(mdRow).toHaveCount(0);
});

test("a teacher can only upload private resources", async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(TEACHER.email, TEACHER.password);
  await page.getByRole("link", { name: "Library" }).click();
  const visibility = page.locator("#visibility");
  await expect(visibility.locator("option")).toHaveText(["Private (only me)"]);
  const shared = await page.request.post("/api/resources", {
    multipart: {
      board: "X",
      grade: "1",
      subject: "Y",
      visibility: "shared",
      file: { name: "a.md", mimeType: "text/markdown", buffer: Buffer.from("# A\n\nText body here.") },
    },
  });
  expect(shared.status()).toBe(403);
});

test("a teacher is offered only the actions the server allows: none on shared books, all on their own notes", async ({
  page,
}) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(TEACHER.email, TEACHER.password);
  await page.getByRole("link", { name: "Library" }).click();
  // Unique per run: the same bytes again would be answered as a duplicate of the first upload.
  const file = `my-notes-${Date.now()}.md`;
  const own = await page.request.post("/api/resources", {
    multipart: {
      board: "OpenStax",
      grade: "11",
      subject: "Biology",
      resourceType: "notes",
      visibility: "private",
      file: {
        name: file,
        mimeType: "text/markdown",
        buffer: Buffer.from(`# Notes\n\nOsmosis moves water (${file}).`),
      },
    },
  });
  expect(own.status()).toBe(202);
  await page.goto("/library");
  const sharedRows = page.getByTestId("library-row").filter({ hasText: "shared" });
  await expect(sharedRows.first()).toBeVisible();
  await expect(sharedRows.getByTestId("row-delete")).toHaveCount(0);
  await expect(sharedRows.getByRole("button", { name: "Re-ingest" })).toHaveCount(0);
  const mine = page.getByTestId("library-row").filter({ hasText: file });
  await expect(mine.getByTestId("row-status")).toHaveText("ready", { timeout: 30_000 });
  await expect(mine.getByTestId("row-delete")).toBeVisible();
  await expect(mine.getByRole("button", { name: "Re-ingest" })).toBeVisible();
  // A refusal the screen did not foresee is still shown: the server says why.
  const id = (await own.json()).ingestions[0].id as string;
  await page.route(`**/api/resources/${id}`, (route) =>
    route.request().method() === "DELETE"
      ? route.fulfill({
          status: 403,
          contentType: "application/json",
          body: JSON.stringify({
            ok: false,
            error: { code: "forbidden", message: "Only an admin or the uploader can change this resource" },
          }),
        })
      : route.continue(),
  );
  await mine.getByTestId("row-delete").click();
  await page.getByTestId("confirm-ok").click();
  await expect(page.getByText("Only an admin or the uploader can change this resource")).toBeVisible();
  await expect(mine).toHaveCount(1);
  // Leave the Biology scope as the demo has it: later specs count its resources.
  await page.unroute(`**/api/resources/${id}`);
  expect((await page.request.delete(`/api/resources/${id}`)).status()).toBe(200);
});

test("an admin splits a book into chapters on upload, filters the library and reads the API reference", async ({
  page,
}, testInfo) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(ADMIN.email, ADMIN.password);
  await page.getByRole("link", { name: "Library" }).click();
  const book = [
    "# Chapter 1: Waves",
    "",
    "A wave is a disturbance that transfers energy from place to place without transferring matter. Sound and light are waves.",
    "The amplitude of a wave is its maximum displacement, and the wavelength is the distance between two crests.",
    "",
    "# Chapter 2: Sound",
    "",
    "Sound is a longitudinal wave that travels through a medium such as air, water or a solid by compressions and rarefactions.",
    "The pitch of a sound depends on its frequency, and its loudness depends on its amplitude and the distance from the source.",
  ].join("\n");
  await page
    .getByTestId("upload-file")
    .setInputFiles({ name: "waves-book.md", mimeType: "text/markdown", buffer: Buffer.from(book) });
  await page.getByTestId("upload-split").check();
  await page.getByTestId("upload-board").fill("CBSE");
  await page.getByTestId("upload-grade").fill("8");
  await page.getByTestId("upload-subject").fill("Science");
  await page.getByTestId("upload-submit").click();
  await page.getByTestId("library-search").fill("waves-book");
  const rows = page.getByTestId("library-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "— Waves" }).getByTestId("row-status")).toHaveText("ready", {
    timeout: 30_000,
  });
  await expect(rows.filter({ hasText: "— Sound" }).getByTestId("row-status")).toHaveText("ready", {
    timeout: 30_000,
  });
  await expect(rows.filter({ hasText: "— Sound" })).toContainText("ch 2");
  await page.screenshot({ path: testInfo.outputPath("split.png"), fullPage: true });
  await page.goto("/api-reference");
  await expect(page.getByTestId("api-operation").filter({ hasText: "/api/retrieval/query" })).toHaveCount(1);
  await expect(
    page
      .getByTestId("api-operation")
      .filter({ has: page.locator("code", { hasText: /^\/api\/generation$/ }) }),
  ).toHaveCount(1);
});
