import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "@/lib/auth/accounts";
import { demoAccountsInUse } from "@/lib/auth/demo-hint";
import { hashPassword } from "@/lib/auth/password";
import { createTestEnv, type ITestEnv } from "../support/test-env";

let env: ITestEnv;
beforeAll(async () => {
  env = await createTestEnv();
});
afterAll(async () => {
  await env.close();
});

describe("demoAccountsInUse (the sign-in page's demo hint)", () => {
  it("lists a demo account only while it exists with its published password", async () => {
    const [admin, teacher] = DEMO_ACCOUNTS;
    // The test database is seeded with both demo accounts.
    expect((await demoAccountsInUse(env.db)).map((a) => a.email)).toEqual([admin.email, teacher.email]);
    await env.db.query("update profiles set password_hash = $1 where email = $2", [
      await hashPassword("the-school-changed-it"),
      teacher.email,
    ]);
    expect(await demoAccountsInUse(env.db)).toEqual([
      { email: admin.email, password: admin.password, role: "admin" },
    ]);
    // An account with no local password (signs in through the school's provider).
    await env.db.query("update profiles set password_hash = null where email = $1", [admin.email]);
    expect(await demoAccountsInUse(env.db)).toEqual([]);
  });
});
