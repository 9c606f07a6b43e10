import { stopGenerationContract } from "@/contracts/generation.contract";
import { stopRun } from "@/lib/generation/runs";
import { handle } from "@/lib/http/route";

/** The teacher's Stop for a generation started with `runId`: its model calls stop, nothing is saved. */
export const POST = handle(stopGenerationContract, async ({ principal, body }) => ({
  ok: true as const,
  stopped: stopRun(principal.userId, body.runId),
}));
