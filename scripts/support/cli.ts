import { closeDb } from "@/lib/db";
import { DatabaseInUseError } from "@/lib/db/pglite";

export interface IRunCliOptions {
  /** What to do instead when the app server holds the embedded database (after "stop it, or"). */
  whileServerRuns?: string;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The one way every CLI ends: run `main`, print a failure as one line (`name: message`, no stack),
 * close the process database whatever happened, and exit with main's code (1 on any error). An
 * open postgres.js pool or PGlite can then never keep a finished command alive (`npm run ingest`
 * used to print "No admin account" and hang on its open connection).
 */
export async function runCli(
  name: string,
  main: () => Promise<number | undefined>,
  opts: IRunCliOptions = {},
): Promise<never> {
  let code: number;
  try {
    code = (await main()) ?? 0;
  } catch (err) {
    code = 1;
    if (err instanceof DatabaseInUseError) {
      console.error(
        `${name}: ${err.message}. Stop it first${opts.whileServerRuns ? `, or ${opts.whileServerRuns}` : ""}.`,
      );
    } else {
      console.error(`${name}: ${message(err)}`);
    }
  }
  try {
    await closeDb();
  } catch (err) {
    console.error(`${name}: could not close the database: ${message(err)}`);
    code ||= 1;
  }
  process.exit(code);
}
