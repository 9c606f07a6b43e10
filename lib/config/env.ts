import "server-only";
import path from "node:path";
import { z } from "zod";

/**
 * The only module that reads `process.env`. Everything else asks for `getConfig()`,
 * so the whole runtime shape of the app (embedded vs Supabase, offline vs OpenAI) is
 * decided in one place and can be overridden wholesale in tests.
 */
const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PAPERWISE_DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z.string().url().optional(),
  SUPABASE_URL: z.string().url().optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
  SUPABASE_JWT_SECRET: z.string().min(32).optional(),
  PAPERWISE_JWT_SECRET: z.string().min(32).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  PAPERWISE_EMBEDDING_MODEL: z.string().min(1).default("text-embedding-3-small"),
  PAPERWISE_CHAT_MODEL: z.string().min(1).default("gpt-4o-mini"),
  PAPERWISE_EMBEDDER: z.enum(["auto", "offline", "openai"]).default("auto"),
  PAPERWISE_LLM: z.enum(["auto", "offline", "openai"]).default("auto"),
  PAPERWISE_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  PAPERWISE_MAX_UPLOAD_MB: z.coerce.number().positive().max(1024).default(50),
  PAPERWISE_SEED_DEMO: z.enum(["true", "false"]).default("true"),
  PAPERWISE_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  PAPERWISE_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(0).default(120),
  PAPERWISE_PLAN_BUDGET_MS: z.coerce.number().int().min(0).max(60_000).default(30),
});

export type TEnv = z.infer<typeof EnvSchema>;

export interface IAppConfig {
  env: TEnv["NODE_ENV"];
  dataDir: string;
  database: { kind: "pglite"; dir: string } | { kind: "postgres"; url: string };
  storage: { kind: "local"; dir: string } | { kind: "supabase"; url: string; serviceRoleKey: string };
  auth: { jwtSecret: string | null; issuer: "paperwise-local" | "supabase" };
  embeddings: { kind: "offline" } | { kind: "openai"; apiKey: string; baseURL?: string; model: string };
  llm:
    | { kind: "offline" }
    | { kind: "openai"; apiKey: string; baseURL?: string; model: string; timeoutMs: number };
  maxUploadBytes: number;
  seedDemo: boolean;
  logLevel: TEnv["PAPERWISE_LOG_LEVEL"];
  rateLimitPerMinute: number;
  /** Retrieval: optional planner probes start only while a request has used less than this. */
  planBudgetMs: number;
}

export function buildConfig(raw: Record<string, string | undefined>): IAppConfig {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ""));
  const env = EnvSchema.parse(cleaned);
  const dataDir = path.resolve(env.PAPERWISE_DATA_DIR);
  const useOpenAIEmbeddings =
    env.PAPERWISE_EMBEDDER === "openai" || (env.PAPERWISE_EMBEDDER === "auto" && !!env.OPENAI_API_KEY);
  const useOpenAILlm =
    env.PAPERWISE_LLM === "openai" || (env.PAPERWISE_LLM === "auto" && !!env.OPENAI_API_KEY);
  if ((useOpenAIEmbeddings || useOpenAILlm) && !env.OPENAI_API_KEY) {
    throw new Error("PAPERWISE_EMBEDDER/PAPERWISE_LLM=openai needs OPENAI_API_KEY");
  }
  const supabaseStorage = env.SUPABASE_URL && env.SUPABASE_SERVICE_ROLE_KEY;
  return {
    env: env.NODE_ENV,
    dataDir,
    database: env.DATABASE_URL
      ? { kind: "postgres", url: env.DATABASE_URL }
      : { kind: "pglite", dir: path.join(dataDir, "pglite") },
    storage: supabaseStorage
      ? { kind: "supabase", url: env.SUPABASE_URL!, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY! }
      : { kind: "local", dir: path.join(dataDir, "storage") },
    auth: env.SUPABASE_JWT_SECRET
      ? { jwtSecret: env.SUPABASE_JWT_SECRET, issuer: "supabase" }
      : { jwtSecret: env.PAPERWISE_JWT_SECRET ?? null, issuer: "paperwise-local" },
    embeddings: useOpenAIEmbeddings
      ? {
          kind: "openai",
          apiKey: env.OPENAI_API_KEY!,
          baseURL: env.OPENAI_BASE_URL,
          model: env.PAPERWISE_EMBEDDING_MODEL,
        }
      : { kind: "offline" },
    llm: useOpenAILlm
      ? {
          kind: "openai",
          apiKey: env.OPENAI_API_KEY!,
          baseURL: env.OPENAI_BASE_URL,
          model: env.PAPERWISE_CHAT_MODEL,
          timeoutMs: env.PAPERWISE_LLM_TIMEOUT_MS,
        }
      : { kind: "offline" },
    maxUploadBytes: Math.round(env.PAPERWISE_MAX_UPLOAD_MB * 1024 * 1024),
    seedDemo: env.PAPERWISE_SEED_DEMO === "true",
    logLevel: env.PAPERWISE_LOG_LEVEL,
    rateLimitPerMinute: env.PAPERWISE_RATE_LIMIT_PER_MIN,
    planBudgetMs: env.PAPERWISE_PLAN_BUDGET_MS,
  };
}

let cached: IAppConfig | null = null;

export function getConfig(): IAppConfig {
  cached ??= buildConfig(process.env);
  return cached;
}

/** Tests and CLIs replace the configuration wholesale instead of mutating `process.env`. */
export function setConfigForProcess(config: IAppConfig): void {
  cached = config;
}
