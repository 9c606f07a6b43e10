import { healthContract } from "@/contracts/system.contract";
import { providerStatus } from "@/lib/ai/provider-guard";
import { getConfig } from "@/lib/config/env";
import { databaseReady } from "@/lib/db";
import { handle } from "@/lib/http/route";

/**
 * Liveness + database readiness (Playwright's webServer waits on it), and the circuit breakers in
 * front of the model provider: an open one means that step is answered offline without waiting.
 * States and counts only, never prompts, keys or provider URLs.
 */
export const GET = handle(healthContract, async () => {
  const database = await databaseReady();
  const { llm, embeddings } = getConfig();
  return {
    ok: true as const,
    database,
    llm: llm.kind,
    embeddings: embeddings.kind,
    providers: providerStatus(),
  };
});
