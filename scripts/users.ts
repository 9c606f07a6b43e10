/**
 * npm run users -- add --email E --role admin|teacher [--password P] [--name N]
 * npm run users -- list
 * npm run users -- set-role --email E --role admin|teacher
 * npm run users -- reset-password --email E [--password P]
 *
 * Local accounts of a self-hosted school, on the embedded data dir (server stopped) or on
 * DATABASE_URL. Without --password a password is generated and printed once. With Supabase Auth
 * (SUPABASE_JWT_SECRET) accounts live there: only `list` works here.
 */
import { Command, Option } from "commander";
import type { z } from "zod";
import {
  createAccount,
  findAccountByEmail,
  generatePassword,
  listAccounts,
  setAccountPassword,
  setAccountRole,
} from "@/lib/auth/accounts";
import { getConfig } from "@/lib/config/env";
import { type IDatabase, openDatabase, setDbForProcess } from "@/lib/db";
import { AccountEmailSchema, AccountPasswordSchema } from "@/schema/users.schema";
import { type ERole, ROLES } from "@/types/curriculum.types";
import { runCli } from "./support/cli";

const WHILE_SERVER_RUNS = "manage accounts on the Users page (/settings/users) while it runs";

/** Opens the database without the server's demo seeding: the first account is the school's own. */
async function database(): Promise<IDatabase> {
  const db = await openDatabase({ bootstrap: false });
  setDbForProcess(db);
  return db;
}

function localAccountsOnly(): void {
  if (getConfig().auth.issuer === "supabase") {
    throw new Error(
      "Accounts live in Supabase Auth (SUPABASE_JWT_SECRET is set): add users and set their role " +
        "(app_metadata.role) in the Supabase dashboard",
    );
  }
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${what}: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  return parsed.data;
}

async function requireAccount(db: IDatabase, email: string) {
  const account = await findAccountByEmail(db, email);
  if (!account) throw new Error(`No account ${email}`);
  return account;
}

const roleOption = () => new Option("--role <role>", "admin | teacher").choices(ROLES).makeOptionMandatory();

const program = new Command().name("users").description("Local accounts (admins and teachers)");

program
  .command("add")
  .description("create an account; prints a generated password when none is given")
  .requiredOption("--email <email>")
  .addOption(roleOption())
  .option("--password <password>", "at least 8 characters (default: generated and printed)")
  .option("--name <name>", "display name")
  .action((o: { email: string; role: ERole; password?: string; name?: string }) =>
    runCli(
      "users add",
      async () => {
        localAccountsOnly();
        const email = parseOrThrow(AccountEmailSchema, o.email, "--email");
        const password = o.password ?? generatePassword();
        parseOrThrow(AccountPasswordSchema, password, "--password");
        const user = await createAccount(await database(), {
          email,
          password,
          role: o.role,
          displayName: o.name,
        });
        console.log(`created ${user.role} ${user.email}`);
        if (!o.password) console.log(`password: ${password}`);
        return 0;
      },
      { whileServerRuns: WHILE_SERVER_RUNS },
    ),
  );

program
  .command("list")
  .description("every account with its role")
  .action(() =>
    runCli(
      "users list",
      async () => {
        const accounts = await listAccounts(await database());
        if (accounts.length === 0)
          console.log("no accounts yet: npm run users -- add --email … --role admin");
        for (const a of accounts) {
          console.log(
            [
              a.email.padEnd(36),
              a.role.padEnd(8),
              a.hasPassword ? "password" : "no local password",
              a.createdAt.slice(0, 10),
              ...(a.disabledAt ? [`disabled ${a.disabledAt.slice(0, 10)}`] : []),
            ].join("  "),
          );
        }
        return 0;
      },
      { whileServerRuns: WHILE_SERVER_RUNS },
    ),
  );

program
  .command("set-role")
  .description("make an account an admin or a teacher")
  .requiredOption("--email <email>")
  .addOption(roleOption())
  .action((o: { email: string; role: ERole }) =>
    runCli(
      "users set-role",
      async () => {
        localAccountsOnly();
        const db = await database();
        const user = await setAccountRole(db, (await requireAccount(db, o.email)).id, o.role);
        console.log(`${user.email} is now ${user.role}`);
        return 0;
      },
      { whileServerRuns: WHILE_SERVER_RUNS },
    ),
  );

program
  .command("reset-password")
  .description("set a new password; prints a generated one when none is given")
  .requiredOption("--email <email>")
  .option("--password <password>", "at least 8 characters (default: generated and printed)")
  .action((o: { email: string; password?: string }) =>
    runCli(
      "users reset-password",
      async () => {
        localAccountsOnly();
        const password = o.password ?? generatePassword();
        parseOrThrow(AccountPasswordSchema, password, "--password");
        const db = await database();
        const user = await setAccountPassword(db, (await requireAccount(db, o.email)).id, password);
        console.log(`password reset for ${user.email}`);
        if (!o.password) console.log(`password: ${password}`);
        return 0;
      },
      { whileServerRuns: WHILE_SERVER_RUNS },
    ),
  );

await program.parseAsync();
