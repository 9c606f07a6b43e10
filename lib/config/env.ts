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
  // A read replica of DATABASE_URL for read-only work (docs/scaling.md); pool sizes per instance.
  DATABASE_READ_URL: z.string().url().optional(),
  PAPERWISE_DB_POOL: z.coerce.number().int().min(1).max(1000).default(10),
  PAPERWISE_DB_READ_POOL: z.coerce.number().int().min(1).max(1000).optional(),
  SUPABASE_URL: z.string().url().optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
  SUPABASE_JWT_SECRET: z.string().min(32).optional(),
  SUPABASE_JWKS_URL: z.string().url().optional(),
  PAPERWISE_AUTH: z.enum(["auto", "local", "supabase"]).default("auto"),
  PAPERWISE_ALLOWED_ORIGINS: z.string().optional(),
  PAPERWISE_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  PAPERWISE_TOKEN_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
  PAPERWISE_JWT_SECRET: z.string().min(32).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  PAPERWISE_EMBEDDING_MODEL: z.string().min(1).default("text-embedding-3-small"),
  PAPERWISE_CHAT_MODEL: z.string().min(1).default("gpt-4o-mini"),
  PAPERWISE_EMBEDDER: z.enum(["auto", "offline", "openai"]).default("auto"),
  PAPERWISE_LLM: z.enum(["auto", "offline", "openai"]).default("auto"),
  PAPERWISE_LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  PAPERWISE_GENERATION_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(6),
  PAPERWISE_E2E_SLOW_MODEL: z.enum(["true", "false"]).default("false"),
  PAPERWISE_EMBEDDING_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  PAPERWISE_BREAKER_FAILURES: z.coerce.number().int().min(1).max(100).default(3),
  PAPERWISE_BREAKER_WINDOW_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  PAPERWISE_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  PAPERWISE_MAX_UPLOAD_MB: z.coerce.number().positive().max(1024).default(50),
  PAPERWISE_SEED_DEMO: z.enum(["true", "false"]).default("true"),
  PAPERWISE_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  PAPERWISE_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(0).default(120),
  PAPERWISE_INGEST_WORKER: z.enum(["on", "off"]).default("on"),
  PAPERWISE_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  PAPERWISE_WORKER_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  PAPERWISE_PLAN_BUDGET_MS: z.coerce.number().int().min(0).max(60_000).default(30),
  // Isolation (docs/isolation.md): per-user concurrency, upload body timeouts, the worker pool.
  PAPERWISE_MAX_CONCURRENT_PER_USER: z.coerce.number().int().min(0).max(100).default(2),
  PAPERWISE_BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  PAPERWISE_BODY_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(600_000),
  PAPERWISE_POOL_THREADS: z.coerce.number().int().min(0).max(64).default(0),
  PAPERWISE_POOL_TASK_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
  PAPERWISE_POOL_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(768),
  PAPERWISE_POOL_NICE: z.coerce.number().int().min(0).max(19).default(10),
  PAPERWISE_UPLOAD_QUOTA_MB: z.coerce.number().min(0).max(10_485_760).default(2048),
});

export type TEnv = z.infer<typeof EnvSchema>;

export interface IAppConfig {
  env: TEnv["NODE_ENV"];
  dataDir: string;
  database:
    | { kind: "pglite"; dir: string }
    | { kind: "postgres"; url: string; readUrl: string | null; pool: number; readPool: number };
  storage: { kind: "local"; dir: string } | { kind: "supabase"; url: string; serviceRoleKey: string };
  auth:
    | { issuer: "paperwise-local"; jwtSecret: string | null }
    | {
        issuer: "supabase";
        /** Legacy HS256 secret; null when the project only signs with asymmetric keys. */
        jwtSecret: string | null;
        /** The project's JWKS (ES256/RS256 signing keys); null with only the legacy secret. */
        jwksUrl: string | null;
        /** Expected `iss` (`<SUPABASE_URL>/auth/v1`) when the project URL is known. */
        tokenIssuer: string | null;
      };
  /** Origins (besides the request's own host) whose cookie-authenticated writes are accepted. */
  allowedOrigins: string[];
  /** Trusted reverse proxies in front that append to X-Forwarded-For (the client address is counted back past them). */
  proxyHops: number;
  /** Lifetime of an API token made without `expiresInDays` (days; 0 = no expiry). */
  tokenDays: number;
  embeddings:
    | { kind: "offline" }
    | { kind: "openai"; apiKey: string; baseURL?: string; model: string; timeoutMs: number };
  llm:
    | { kind: "offline" }
    | { kind: "openai"; apiKey: string; baseURL?: string; model: string; timeoutMs: number };
  /** Question slots the language model writes at once (the offline generator takes one at a time). */
  generationConcurrency: number;
  /**
   * Test-only: the e2e server sets it so a request carrying the `x-paperwise-e2e-model: slow` header
   * gets a slow streaming stand-in model for its questions (lib/ai/e2e-slow-model.ts).
   */
  e2eSlowModel: boolean;
  /** Circuit breakers in front of the model provider, one per provider and step (lib/ai/provider-guard.ts). */
  breaker: { failureThreshold: number; windowMs: number; coolDownMs: number };
  maxUploadBytes: number;
  seedDemo: boolean;
  logLevel: TEnv["PAPERWISE_LOG_LEVEL"];
  rateLimitPerMinute: number;
  /**
   * This process's consumer of the ingestion queue (lib/ingestion/queue.ts): off when dedicated
   * `npm run worker` processes do the work. Concurrency and polling apply to PostgreSQL only.
   */
  ingestWorker: { enabled: boolean; concurrency: number; pollMs: number };
  /** Retrieval: optional planner probes start only while a request has used less than this. */
  planBudgetMs: number;
  /** One user cannot stall the others (docs/isolation.md). */
  isolation: {
    /** Uploads, generations and exports each one user may run at once (0 = no cap). */
    maxConcurrentPerUser: number;
    /** An upload body that sends nothing for this long, or takes longer altogether, is cut off. */
    bodyIdleTimeoutMs: number;
    bodyTimeoutMs: number;
    /** Worker threads for CPU-heavy work (0 = from the CPU count). */
    poolThreads: number;
    poolTaskTimeoutMs: number;
    /** Heap limit of each worker thread (resourceLimits.maxOldGenerationSizeMb). */
    poolMemoryMb: number;
    /** Scheduling niceness of each worker thread (Linux): requests' own thread gets the CPU first. */
    poolNice: number;
    /** Total bytes of originals one user may keep stored (0 = no quota). */
    uploadQuotaBytes: number;
  };
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
  if (env.DATABASE_READ_URL && !env.DATABASE_URL) {
    throw new Error("DATABASE_READ_URL (a read replica) needs DATABASE_URL (its primary)");
  }
  const supabaseStorage = env.SUPABASE_URL && env.SUPABASE_SERVICE_ROLE_KEY;
  const supabaseAuth =
    env.PAPERWISE_AUTH === "supabase" ||
    (env.PAPERWISE_AUTH === "auto" && !!(env.SUPABASE_JWT_SECRET || env.SUPABASE_JWKS_URL));
  const projectUrl = env.SUPABASE_URL?.replace(/\/+$/, "");
  const jwksUrl =
    env.SUPABASE_JWKS_URL ?? (projectUrl ? `${projectUrl}/auth/v1/.well-known/jwks.json` : null);
  if (supabaseAuth && !env.SUPABASE_JWT_SECRET && !jwksUrl) {
    throw new Error("PAPERWISE_AUTH=supabase needs SUPABASE_URL (for its JWKS) or SUPABASE_JWT_SECRET");
  }
  return {
    env: env.NODE_ENV,
    dataDir,
    database: env.DATABASE_URL
      ? {
          kind: "postgres",
          url: env.DATABASE_URL,
          readUrl: env.DATABASE_READ_URL ?? null,
          pool: env.PAPERWISE_DB_POOL,
          readPool: env.PAPERWISE_DB_READ_POOL ?? env.PAPERWISE_DB_POOL,
        }
      : { kind: "pglite", dir: path.join(dataDir, "pglite") },
    storage: supabaseStorage
      ? { kind: "supabase", url: env.SUPABASE_URL!, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY! }
      : { kind: "local", dir: path.join(dataDir, "storage") },
    auth: supabaseAuth
      ? {
          issuer: "supabase",
          jwtSecret: env.SUPABASE_JWT_SECRET ?? null,
          jwksUrl,
          tokenIssuer: projectUrl ? `${projectUrl}/auth/v1` : null,
        }
      : { issuer: "paperwise-local", jwtSecret: env.PAPERWISE_JWT_SECRET ?? null },
    allowedOrigins: (env.PAPERWISE_ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => new URL(o).origin),
    proxyHops: env.PAPERWISE_PROXY_HOPS,
    tokenDays: env.PAPERWISE_TOKEN_DAYS,
    embeddings: useOpenAIEmbeddings
      ? {
          kind: "openai",
          apiKey: env.OPENAI_API_KEY!,
          baseURL: env.OPENAI_BASE_URL,
          model: env.PAPERWISE_EMBEDDING_MODEL,
          timeoutMs: env.PAPERWISE_EMBEDDING_TIMEOUT_MS,
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
    generationConcurrency: env.PAPERWISE_GENERATION_CONCURRENCY,
    e2eSlowModel: env.PAPERWISE_E2E_SLOW_MODEL === "true",
    breaker: {
      failureThreshold: env.PAPERWISE_BREAKER_FAILURES,
      windowMs: env.PAPERWISE_BREAKER_WINDOW_MS,
      coolDownMs: env.PAPERWISE_BREAKER_COOLDOWN_MS,
    },
    maxUploadBytes: Math.round(env.PAPERWISE_MAX_UPLOAD_MB * 1024 * 1024),
    seedDemo: env.PAPERWISE_SEED_DEMO === "true",
    logLevel: env.PAPERWISE_LOG_LEVEL,
    rateLimitPerMinute: env.PAPERWISE_RATE_LIMIT_PER_MIN,
    ingestWorker: {
      enabled: env.PAPERWISE_INGEST_WORKER === "on",
      concurrency: env.PAPERWISE_WORKER_CONCURRENCY,
      pollMs: env.PAPERWISE_WORKER_POLL_MS,
    },
    planBudgetMs: env.PAPERWISE_PLAN_BUDGET_MS,
    isolation: {
      maxConcurrentPerUser: env.PAPERWISE_MAX_CONCURRENT_PER_USER,
      bodyIdleTimeoutMs: env.PAPERWISE_BODY_IDLE_TIMEOUT_MS,
      bodyTimeoutMs: env.PAPERWISE_BODY_TIMEOUT_MS,
      poolThreads: env.PAPERWISE_POOL_THREADS,
      poolTaskTimeoutMs: env.PAPERWISE_POOL_TASK_TIMEOUT_MS,
      poolMemoryMb: env.PAPERWISE_POOL_MEMORY_MB,
      poolNice: env.PAPERWISE_POOL_NICE,
      uploadQuotaBytes: Math.round(env.PAPERWISE_UPLOAD_QUOTA_MB * 1024 * 1024),
    },
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
