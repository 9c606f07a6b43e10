import { z } from "zod";

/** One circuit breaker in front of the model provider (lib/ai/provider-guard.ts). */
export const ProviderStatusSchema = z.object({
  provider: z.string().meta({ description: "AI SDK provider id, e.g. openai.chat" }),
  model: z.string(),
  step: z.enum(["plan", "rerank", "enhance", "answerability", "question", "embed"]),
  state: z.enum(["closed", "open", "half-open"]).meta({
    description: "open: the step is answered offline (or in fused order) without calling the provider",
  }),
  consecutiveFailures: z.number().int(),
  retryInMs: z
    .number()
    .int()
    .nullable()
    .meta({ description: "while open: time until one trial call probes" }),
  lastFailure: z.string().nullable(),
  opens: z.number().int(),
  rejected: z.number().int(),
});

export const HealthResponseSchema = z.object({
  ok: z.literal(true),
  database: z.string(),
  llm: z.enum(["offline", "openai"]),
  embeddings: z.enum(["offline", "openai"]),
  providers: z.array(ProviderStatusSchema).meta({ description: "breakers this instance has used" }),
});

export type TProviderStatus = z.infer<typeof ProviderStatusSchema>;
export type THealthResponse = z.infer<typeof HealthResponseSchema>;
