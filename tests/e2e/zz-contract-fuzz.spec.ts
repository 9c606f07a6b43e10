import { spawn } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * The contract fuzz through a validating proxy (eval/scripts/fuzz-contract.ts): Stoplight Prism sits
 * between the fuzzer and this e2e server and checks every request and answer against the server's
 * own OpenAPI document. It must find no 5xx, no response that breaks the document and no
 * well-formed request the document refuses. Named to run last: it creates papers and tokens for
 * the demo accounts, which the other specs must not see.
 */
test("the served OpenAPI document holds for every answer of a contract fuzz through Prism", async ({
  baseURL,
}) => {
  test.setTimeout(300_000);
  const port = Number(process.env.E2E_PORT ?? 3100) + 1000;
  const child = spawn(
    path.join(process.cwd(), "node_modules/.bin/tsx"),
    ["eval/scripts/fuzz-contract.ts", "--target", baseURL ?? "", "--port", String(port), "--rounds", "1"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (d) => {
    output += d;
  });
  child.stderr.on("data", (d) => {
    output += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  console.log(output.split("\n").slice(-12).join("\n"));
  expect(code, output.slice(-4000)).toBe(0);
  expect(output).toMatch(/requests/i);
});
