import "server-only";
import { createHash } from "node:crypto";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "@/lib/errors";
import { type ILimitSpec, limiterFor, retryAfterSeconds } from "@/lib/http/rate-limit";

/**
 * Password guessing is throttled so that an attacker slows *themselves* down, never locks the owner
 * out (issue 27: ten wrong passwords used to lock any account, the only admin's included, for 15
 * minutes against the right password from anywhere):
 *
 * 1. **Per (account, address)**, progressive: the first {@link FREE_PAIR_FAILURES} attempts are
 *    free, then each further attempt from that address for that account waits 1 s, 2 s, 4 s, …
 *    up to 15 min (429 + Retry-After). Only that address is slowed for that account.
 * 2. **Per address** (any account), hard: 50 attempts per 15 min, against password spraying.
 *    Teachers behind one school address share it; a correct password gives its point back.
 * 3. **Per account** (any address), soft: past {@link ACCOUNT_SOFT_LIMIT} attempts in 15 min the
 *    account is paced to one attempt per {@link ACCOUNT_PACE_SEC} s from addresses that have not
 *    signed in to it before (the pace's 429 says to retry in ≤ 2 s). An address that signed in to
 *    the account in the last 14 days is never paced, so the owner at their usual place gets in at
 *    once, and from a new place after a short wait — it slows a distributed guesser, locks no one.
 *
 * Every attempt is counted before the password is checked (parallel guesses cannot slip past);
 * a correct password clears the pair's count and delay and marks the pair as known. Unknown
 * emails are counted like known ones, so a 429 says nothing about which accounts exist. Emails
 * and addresses are stored as hashes. The address is `clientAddress()` (lib/http/origin.ts): the
 * socket's, unless trusted proxies are configured.
 */
export const FREE_PAIR_FAILURES = 3;
export const MAX_PAIR_DELAY_SEC = 15 * 60;
export const ACCOUNT_SOFT_LIMIT = 20;
export const ACCOUNT_PACE_SEC = 2;

const WINDOW = 15 * 60;
/** Attempts of one (account, address) pair in the window (only counted; the delay limits). */
const PAIR_COUNT: ILimitSpec = { name: "login-pair", points: 1_000_000, durationSec: WINDOW };
/** The pair's current delay, set with block(): present and over its point = wait. */
const PAIR_WAIT: ILimitSpec = { name: "login-pair-wait", points: 1, durationSec: 1 };
export const LOGIN_PER_ADDRESS: ILimitSpec = { name: "login-address", points: 50, durationSec: WINDOW };
/** Attempts on one account from everywhere in the window (only counted; the pace limits). */
const ACCOUNT_COUNT: ILimitSpec = { name: "login-account", points: 1_000_000, durationSec: WINDOW };
const ACCOUNT_PACE: ILimitSpec = { name: "login-account-pace", points: 1, durationSec: ACCOUNT_PACE_SEC };
/**
 * Pairs that signed in successfully: exempt from the account's pace. 14 days, not more: the
 * in-memory store expires keys with setTimeout, which cannot wait longer than 24.8 days.
 */
const KNOWN_PAIR: ILimitSpec = { name: "login-known", points: 1, durationSec: 14 * 86_400 };

const hash = (s: string) => createHash("sha256").update(s).digest("hex");
const accountKey = (email: string) => hash(email.trim().toLowerCase());

/** The delay after the pair's n-th attempt (nothing for the free ones). */
export function pairDelaySeconds(attempts: number): number {
  if (attempts < FREE_PAIR_FAILURES) return 0;
  return Math.min(MAX_PAIR_DELAY_SEC, 2 ** (attempts - FREE_PAIR_FAILURES));
}

export interface ILoginAttempt {
  succeeded(): Promise<void>;
}

async function take(limiter: RateLimiterAbstract, key: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) return err;
    throw err;
  }
}

/** A block() still running: the limiter's record is over its points and not yet expired. */
async function blockedFor(limiter: RateLimiterAbstract, points: number, key: string): Promise<number> {
  const res = await limiter.get(key);
  return res && res.consumedPoints > points && res.msBeforeNext > 0 ? retryAfterSeconds(res) : 0;
}

function refuse(message: string, wait: number): never {
  throw new AppError("rate_limited", `${message}; try again in ${formatWait(wait)}`, {
    headers: { "Retry-After": String(wait) },
  });
}

function formatWait(sec: number): string {
  return sec < 90 ? `${sec} s` : `${Math.ceil(sec / 60)} min`;
}

/** Counts one sign-in attempt; a 429 with Retry-After when this attempt must wait. */
export async function beginLoginAttempt(email: string, address: string): Promise<ILoginAttempt> {
  const [pairCount, pairWait, perAddress, accountCount, accountPace, known] = await Promise.all(
    [PAIR_COUNT, PAIR_WAIT, LOGIN_PER_ADDRESS, ACCOUNT_COUNT, ACCOUNT_PACE, KNOWN_PAIR].map(limiterFor),
  );
  const account = accountKey(email);
  const pair = hash(`${account}|${address}`);
  const addressKey = hash(address);

  const pairWaiting = await blockedFor(pairWait!, PAIR_WAIT.points, pair);
  if (pairWaiting > 0) refuse("Too many failed sign-ins for this account from here", pairWaiting);

  const byAddress = await take(perAddress!, addressKey);
  if (byAddress.consumedPoints > LOGIN_PER_ADDRESS.points) {
    refuse("Too many failed sign-ins from this address", retryAfterSeconds(byAddress));
  }

  const byAccount = await take(accountCount!, account);
  if (byAccount.consumedPoints > ACCOUNT_SOFT_LIMIT && !(await known!.get(pair))) {
    const paced = await take(accountPace!, account);
    if (paced.consumedPoints > ACCOUNT_PACE.points) {
      refuse("This account is getting many failed sign-ins", retryAfterSeconds(paced));
    }
  }

  const attempts = (await take(pairCount!, pair)).consumedPoints;
  const delay = pairDelaySeconds(attempts);
  // Set before the password is checked: a parallel guess from this pair waits like the next one.
  if (delay > 0) await pairWait!.block(pair, delay);

  return {
    async succeeded() {
      await Promise.all([
        pairCount!.delete(pair),
        pairWait!.delete(pair),
        perAddress!.reward(addressKey, 1),
        accountCount!.reward(account, 1),
        known!.set(pair, 1, KNOWN_PAIR.durationSec),
      ]);
    },
  };
}
