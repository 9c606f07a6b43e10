import "server-only";
import type { IDatabase, ISqlExecutor } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { deleteIngestion } from "@/lib/ingestion/pipeline";
import { getIngestionRow } from "@/lib/ingestion/store";
import type { IObjectStorage } from "@/lib/storage/types";
import { findManagedAccount } from "./accounts";

/**
 * Deleting an account. Nothing it made is lost silently: the admin chooses what happens to its
 * private resources, papers and question sets —
 * - `transfer`: all of it goes to another account (`to`), which then owns it;
 * - `delete`: its private resources (with their stored originals), papers and question sets are
 *   deleted.
 * Shared resources it uploaded belong to the school: they always move (to `to`, or to the admin
 * deleting the account). Its sessions and API tokens go with the account; retrieval logs keep
 * their rows without a user. Nobody deletes themselves or the last enabled admin.
 */
export type TPrivateDataChoice = "transfer" | "delete";

export interface IDeleteAccountParams {
  actorId: string;
  id: string;
  privateData: TPrivateDataChoice;
  /** Required with `transfer`: the account that receives everything. */
  to?: string;
  /** Runs after every check passed, before anything changes here (Supabase Auth deletes its user). */
  beforeChanges?: () => Promise<void>;
}

export interface IOwnedCounts {
  resources: number;
  papers: number;
  questionSets: number;
}

export interface IDeleteAccountResult {
  deleted: string;
  email: string;
  privateData: TPrivateDataChoice;
  /** Who received what moved (the `to` account, or the acting admin for shared resources only). */
  movedTo: string | null;
  /** Moved to `movedTo`: shared resources always; with `transfer`, private ones, papers and sets too. */
  moved: IOwnedCounts;
  /** Deleted with the account (`delete` only). */
  removed: IOwnedCounts;
}

/** What an account owns, for the confirm dialog and the answer. */
export async function ownedCounts(
  db: ISqlExecutor,
  userId: string,
): Promise<IOwnedCounts & { sharedResources: number }> {
  const [row] = await db.query<{ shared: number; private: number; papers: number; sets: number }>(
    `select (select count(*)::int from ingestions where user_id = $1 and visibility = 'shared') as shared,
       (select count(*)::int from ingestions where user_id = $1 and visibility <> 'shared') as private,
       (select count(*)::int from papers where user_id = $1) as papers,
       (select count(*)::int from question_sets where user_id = $1) as sets`,
    [userId],
  );
  return {
    resources: row!.private,
    sharedResources: row!.shared,
    papers: row!.papers,
    questionSets: row!.sets,
  };
}

/** Moves ownership of resources (all, or shared only), papers and question sets. */
async function moveOwnership(
  tx: ISqlExecutor,
  from: string,
  to: string,
  what: "all" | "shared",
): Promise<IOwnedCounts> {
  const onlyShared = what === "shared" ? " and visibility = 'shared'" : "";
  const ingestions = await tx.query<{ id: string }>(
    `update ingestions set user_id = $2 where user_id = $1${onlyShared} returning id`,
    [from, to],
  );
  await tx.query(`update document_versions set owner_id = $2 where owner_id = $1${onlyShared}`, [from, to]);
  if (what === "shared") return { resources: ingestions.length, papers: 0, questionSets: 0 };
  const papers = await tx.query("update papers set user_id = $2 where user_id = $1 returning id", [from, to]);
  const sets = await tx.query("update question_sets set user_id = $2 where user_id = $1 returning id", [
    from,
    to,
  ]);
  return { resources: ingestions.length, papers: papers.length, questionSets: sets.length };
}

/** Deletes the profile unless it is the last enabled admin (checked in the statement itself). */
async function deleteProfile(tx: ISqlExecutor, id: string): Promise<void> {
  const rows = await tx.query(
    `delete from profiles where id = $1
       and (role <> 'admin' or disabled_at is not null
            or (select count(*) from profiles where role = 'admin' and disabled_at is null and id <> $1) > 0)
     returning id`,
    [id],
  );
  if (rows.length === 0) {
    throw new AppError("conflict", "This is the only enabled admin account; make another admin first");
  }
}

export async function deleteAccount(
  db: IDatabase,
  /** Asked for only when stored originals are deleted. */
  storage: () => IObjectStorage,
  p: IDeleteAccountParams,
): Promise<IDeleteAccountResult> {
  if (p.id === p.actorId) throw new AppError("conflict", "You cannot delete your own account");
  const account = await findManagedAccount(db, p.id);
  if (!account) throw new AppError("not_found", "No such account");
  if (p.privateData === "transfer") {
    if (!p.to) {
      throw new AppError("bad_request", "Say who receives the account's data", {
        details: [{ path: "to", message: "Required when privateData is transfer" }],
      });
    }
    if (p.to === p.id) {
      throw new AppError("bad_request", "Transfer the data to another account", {
        details: [{ path: "to", message: "Must be another account than the one deleted" }],
      });
    }
    if (!(await findManagedAccount(db, p.to))) {
      throw new AppError("bad_request", "The account to transfer to does not exist", {
        details: [{ path: "to", message: "No such account" }],
      });
    }
  }
  // Refused up front (the DELETE checks again), so the last admin's data is never touched.
  if (account.role === "admin" && !account.disabledAt) {
    const [other] = await db.query<{ n: number }>(
      "select count(*)::int as n from profiles where role = 'admin' and disabled_at is null and id <> $1",
      [p.id],
    );
    if (!other?.n) {
      throw new AppError("conflict", "This is the only enabled admin account; make another admin first");
    }
  }

  await p.beforeChanges?.();
  const empty: IOwnedCounts = { resources: 0, papers: 0, questionSets: 0 };
  if (p.privateData === "transfer") {
    const to = p.to!;
    const moved = await db.transaction(async (tx) => {
      const counts = await moveOwnership(tx, p.id, to, "all");
      await deleteProfile(tx, p.id);
      return counts;
    });
    return {
      deleted: p.id,
      email: account.email,
      privateData: "transfer",
      movedTo: to,
      moved,
      removed: empty,
    };
  }

  // delete: shared resources to the acting admin first, then each private resource with its stored
  // original (in batches, like the library's Delete), then the account (papers and sets cascade).
  const moved = await db.transaction((tx) => moveOwnership(tx, p.id, p.actorId, "shared"));
  const owned = await ownedCounts(db, p.id);
  const privateIds = await db.query<{ id: string }>("select id from ingestions where user_id = $1", [p.id]);
  for (const { id } of privateIds) {
    const row = await getIngestionRow(db, id);
    if (row) await deleteIngestion(db, storage(), row);
  }
  await db.transaction((tx) => deleteProfile(tx, p.id));
  return {
    deleted: p.id,
    email: account.email,
    privateData: "delete",
    movedTo: moved.resources > 0 ? p.actorId : null,
    moved,
    removed: { resources: privateIds.length, papers: owned.papers, questionSets: owned.questionSets },
  };
}
