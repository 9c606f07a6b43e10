import { expect, type Page, test } from "@playwright/test";
import { ADMIN, LoginPage, TEACHER } from "./pages/login.page";

/**
 * The pages work under the nonce-based CSP (hydration, navigation, uploads' UI), every kind of
 * response carries the security headers, and signing out ends the session server-side.
 */

/** CSP violations reported by the page (the browser fires an event for each blocked resource). */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(m.text())) console.push(m.text());
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return async () => [
    ...console,
    ...(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp ?? [])),
  ];
}

test("the app runs under its nonce-based CSP without a single violation", async ({ page }) => {
  const violations = await watchViolations(page);
  const login = new LoginPage(page);
  await login.goto();
  // The login form is a client component: it only works once React has hydrated under the CSP.
  await login.signIn(ADMIN.email, ADMIN.password);
  await expect(page.getByTestId("user-role")).toHaveText(/Admin/i);
  for (const path of ["/", "/library", "/papers", "/settings/api", "/api-reference"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    await page.waitForLoadState("networkidle");
    // Every script Next.js rendered carries this response's nonce.
    const csp = res!.headers()["content-security-policy"]!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    const scripts = await page.evaluate(() =>
      [...document.querySelectorAll("script")].map((s) => ({ nonce: s.nonce, src: s.src })),
    );
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const s of scripts.filter((x) => !x.src)) expect(s.nonce, `${path} inline script`).toBe(nonce);
  }
  await page.goto("/library");
  await expect(page.getByTestId("library-row").first()).toBeVisible();
  expect(await violations()).toEqual([]);
});

test("pages, API answers, errors and static files carry the security headers", async ({ page, request }) => {
  const login = await page.goto("/login");
  const pageHeaders = login!.headers();
  expect(pageHeaders["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(pageHeaders["content-security-policy"]).toContain("frame-ancestors 'none'");
  const again = (await page.goto("/login"))!.headers()["content-security-policy"];
  expect(again).not.toBe(pageHeaders["content-security-policy"]);

  const staticUrl = await page.evaluate(() => document.querySelector<HTMLScriptElement>("script[src]")!.src);
  const responses = {
    page: pageHeaders,
    "api json": (await request.get("/api/health")).headers(),
    "api error": (await request.get("/api/papers")).headers(),
    "api 404": (await request.get("/api/nope")).headers(),
    "static file": (await request.get(staticUrl)).headers(),
    "page 404": (await request.get("/no-such-page")).headers(),
  };
  for (const [what, h] of Object.entries(responses)) {
    expect(h["x-content-type-options"], what).toBe("nosniff");
    expect(h["x-frame-options"], what).toBe("DENY");
    expect(h["referrer-policy"], what).toBe("same-origin");
    // A script or stylesheet is not a document: no CSP needed, nosniff is what matters.
    if (what !== "static file")
      expect(h["content-security-policy"], what).toContain("frame-ancestors 'none'");
  }
  expect(responses["api json"]["content-security-policy"]).toContain("default-src 'none'");
});

test("signing out ends the session on the server, not only in this browser", async ({ page, request }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(TEACHER.email, TEACHER.password);
  await expect(page.getByTestId("user-role")).toHaveText("Teacher");
  const cookie = (await page.context().cookies()).find((c) => c.name === "pw_session")!;
  const me = () => request.get("/api/auth/me", { headers: { authorization: `Bearer ${cookie.value}` } });
  expect((await me()).status()).toBe(200);
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/login/);
  expect((await me()).status()).toBe(401);
});

test("a cookie-authenticated write from another origin is refused", async ({ page }) => {
  const login = new LoginPage(page);
  await login.goto();
  await login.signIn(TEACHER.email, TEACHER.password);
  await expect(page.getByTestId("user-role")).toHaveText("Teacher");
  const cookie = (await page.context().cookies()).find((c) => c.name === "pw_session")!;
  const res = await page.request.post("/api/papers", {
    headers: {
      cookie: `pw_session=${cookie.value}`,
      origin: "https://evil.example",
      "content-type": "application/json",
    },
    data: { template: "blank", title: "Forged", board: "OpenStax", grade: "11", subject: "Biology" },
  });
  expect(res.status()).toBe(403);
  // The same request from the app's own origin works.
  const own = await page.evaluate(async () => {
    const r = await fetch("/api/papers", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        template: "blank",
        title: "Own",
        board: "OpenStax",
        grade: "11",
        subject: "Biology",
      }),
    });
    return r.status;
  });
  expect(own).toBe(201);
});
