import "server-only";
import { createHash } from "node:crypto";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "@/lib/errors";
import { type ILimitSpec, limiterFor, retryAfterSeconds } from "@/lib/http/rate-limit";

/**
 * Password guessing is throttled per account (whoever asks) and per address (whichever account):
 * each attempt takes a point from both before the password is checked, so parallel guesses
 * cannot slip past the count; a correct password clears the account's count and gives the
 * address its point back. Unknown emails are counted like known ones, so a 429 says nothing
 * about which accounts exist.
 */
export const LOGIN_PER_ACCOUNT: ILimitSpec = { name: "login-account", points: 10, durationSec: 15 * 60 };
/** Higher than per account: a school's teachers often share one public address. */
export const LOGIN_PER_ADDRESS: ILimitSpec = { name: "login-address", points: 50, durationSec: 15 * 60 };

/** Accounts are counted by a hash of the email: no addresses in the limiter's table. */
const accountKey = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest("hex");

export interface ILoginAttempt {
  succeeded(): Promise<void>;
}

async function take(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes | null> {
  try {
    await limiter.consume(key);
    return null;
  } catch (err) {
    if (err instanceof RateLimiterRes) return err;
    throw err;
  }
}

/** Counts one sign-in attempt; a 429 with Retry-After when the account or the address is over. */
export async function beginLoginAttempt(email: string, address: string): Promise<ILoginAttempt> {
  const [perAccount, perAddress] = await Promise.all([
    limiterFor(LOGIN_PER_ACCOUNT),
    limiterFor(LOGIN_PER_ADDRESS),
  ]);
  const account = accountKey(email);
  const [accountOver, addressOver] = await Promise.all([
    take(perAccount, account),
    take(perAddress, address),
  ]);
  const over = accountOver ?? addressOver;
  if (over) {
    const wait = Math.max(
      accountOver ? retryAfterSeconds(accountOver) : 0,
      addressOver ? retryAfterSeconds(addressOver) : 0,
    );
    throw new AppError("rate_limited", `Too many failed sign-ins; try again in ${Math.ceil(wait / 60)} min`, {
      headers: { "Retry-After": String(wait) },
    });
  }
  return {
    async succeeded() {
      await Promise.all([perAccount.delete(account), perAddress.reward(address, 1)]);
    },
  };
}
