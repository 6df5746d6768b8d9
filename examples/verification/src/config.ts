/** Settings read from the environment once, at start-up (documented in the README). */
export interface Config {
  host: string
  port: number
  /** Directory of the SQLite file (ignored with `databaseUrl`). */
  dataDir: string
  /** `postgres://…` selects PostgreSQL. */
  databaseUrl: string | undefined
  /** Base of hosted-link URLs (default `http://<host>:<port>`). */
  publicUrl: string
  /** Signs tokens and seals stored API keys; generated and kept in the database when unset. */
  serverSecret: string | undefined
  /** A partner (and its key) registered at start-up. */
  partnerId: string | undefined
  apiKey: string | undefined
  /** Default callback URL of the start-up partner. */
  partnerCallbackUrl: string | undefined
  /** How long an async job stays `processing` before the sandbox decides it. */
  sandboxDelayMs: number
  /** Longest time between looks for due jobs and callbacks (LISTEN/NOTIFY and timers usually wake sooner). */
  workerPollMs: number
  /** How long a worker holds a job without renewing its lease (a dead instance's jobs are taken over after this). */
  jobLeaseMs: number
  /** Callback deliveries: attempts in all, first back-off (doubling), per-attempt timeout. */
  callbackAttempts: number
  callbackBackoffMs: number
  callbackTimeoutMs: number
  /** Largest accepted image part, in bytes. */
  imageMaxBytes: number
  /** Token lifetime in seconds. */
  tokenTtlSeconds: number
}

export const DEFAULT_PORT = 8082
export const BODY_LIMIT = 10 * 1024 * 1024
export const IMAGE_MAX_BYTES = 4.5 * 1024 * 1024

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const host = env.HOST ?? '127.0.0.1'
  const port = integer(env, 'PORT', DEFAULT_PORT, 0, 65535)
  return {
    host,
    port,
    dataDir: env.DATA_DIR ?? '.data/verification',
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (env.PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/+$/, ''),
    serverSecret: env.SERVER_SECRET || undefined,
    partnerId: env.PARTNER_ID || undefined,
    apiKey: env.API_KEY || undefined,
    partnerCallbackUrl: env.PARTNER_CALLBACK_URL || undefined,
    sandboxDelayMs: integer(env, 'SANDBOX_DELAY_MS', 300, 0, 3_600_000),
    workerPollMs: integer(env, 'WORKER_POLL_MS', 1000, 5, 60_000),
    jobLeaseMs: integer(env, 'JOB_LEASE_MS', 30_000, 100, 3_600_000),
    callbackAttempts: integer(env, 'CALLBACK_ATTEMPTS', 4, 1, 20),
    callbackBackoffMs: integer(env, 'CALLBACK_BACKOFF_MS', 2000, 1, 3_600_000),
    callbackTimeoutMs: integer(env, 'CALLBACK_TIMEOUT_MS', 10_000, 10, 120_000),
    imageMaxBytes: integer(env, 'IMAGE_MAX_BYTES', IMAGE_MAX_BYTES, 1024, BODY_LIMIT),
    tokenTtlSeconds: integer(env, 'TOKEN_TTL_SECONDS', 900, 1, 86_400),
  }
}

function integer(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
  }
  return value
}
