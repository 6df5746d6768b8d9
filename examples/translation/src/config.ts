/** Configuration from the environment (documented in the README). */
import type { RateLimit } from './auth/key-rate-limit.ts'

export const DEFAULT_PORT = 8081

export interface EngineConfig {
  /** `phrase-table` (default), `libretranslate`, `openai`, `deepl`. */
  kind: string
  url: string | undefined
  apiKey: string | undefined
  model: string | undefined
  timeoutMs: number
}

export interface Config {
  host: string
  port: number
  dataDir: string
  databaseUrl: string | undefined
  adminKey: string | undefined
  apiKey: string | undefined
  rateLimit: RateLimit | undefined
  /** `redis://…`: rate limits shared by every instance (else each instance counts in memory). */
  redisUrl: string | undefined
  engine: EngineConfig
  customTagPageSize: number
  /** Browser origins allowed to call the API (CORS); empty = none, `['*']` = any. */
  corsOrigins: string[]
  /** Largest document upload in bytes, and documents translated at the same time. */
  documentMaxBytes: number
  documentConcurrency: number
  /** Background jobs: how long a worker holds one without renewing its lease, and the longest sleep between looks. */
  jobLeaseMs: number
  jobPollMs: number
  /** Largest TMX file imported into a translation memory. */
  tmxMaxBytes: number
  /** Speech engines and real-time voice sessions (src/speech, src/voice). */
  voice: VoiceConfig
  /**
   * `deepl-mock` (`TEST_MODE=deepl-mock` or `--test-mode=deepl-mock`): behave like DeepL's mock server for client test
   * suites (src/mock/). Undefined otherwise, and then nothing of that mode exists.
   */
  testMode: TestMode | undefined
  /** deepl-mock's proxy port (`MOCK_PROXY_PORT`, test mode only): a forward proxy to this server adding `Forwarded`. */
  mockProxyPort: number | undefined
}

export interface VoiceConfig {
  /** `pocketsphinx` (default) or `openai` (an OpenAI-compatible `/audio/transcriptions`). */
  speechEngine: string
  speechEngineUrl: string | undefined
  speechEngineApiKey: string | undefined
  speechEngineModel: string
  speechEngineTimeoutMs: number
  /** Lifetime of a streaming token, the longest session, the longest silence between messages. */
  tokenTtlMs: number
  sessionMaxMs: number
  idleMs: number
  /** How often a growing utterance is recognised as tentative. */
  partialMs: number
  /** Largest upload of a voice translation job. */
  jobMaxBytes: number
}

export const TEST_MODES = ['deepl-mock'] as const
export type TestMode = (typeof TEST_MODES)[number]

export function readConfig(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = []): Config {
  const testMode = readTestMode(env, argv)
  const engineKind = env.ENGINE || (testMode === 'deepl-mock' ? 'proton-beam' : 'phrase-table')
  if (engineKind === 'proton-beam' && testMode !== 'deepl-mock')
    throw new Error('ENGINE=proton-beam exists only in TEST_MODE=deepl-mock')
  const mockProxyPort = env.MOCK_PROXY_PORT ? integer(env, 'MOCK_PROXY_PORT', 0, 0) : undefined
  if (mockProxyPort !== undefined && testMode !== 'deepl-mock')
    throw new Error('MOCK_PROXY_PORT exists only in TEST_MODE=deepl-mock')
  return {
    testMode,
    mockProxyPort,
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', DEFAULT_PORT, 0),
    dataDir: env.DATA_DIR || '.data/translation',
    databaseUrl: env.DATABASE_URL || undefined,
    adminKey: env.ADMIN_KEY || undefined,
    apiKey: env.API_KEY || undefined,
    rateLimit: env.RATE_LIMIT_REQUESTS
      ? {
          requests: integer(env, 'RATE_LIMIT_REQUESTS', 0, 1),
          windowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1),
        }
      : undefined,
    redisUrl: env.REDIS_URL || undefined,
    engine: {
      kind: engineKind,
      url: env.ENGINE_URL || undefined,
      apiKey: env.ENGINE_API_KEY || undefined,
      model: env.ENGINE_MODEL || undefined,
      timeoutMs: integer(env, 'ENGINE_TIMEOUT_MS', 30_000, 1),
    },
    customTagPageSize: integer(env, 'CUSTOM_TAG_PAGE_SIZE', 100, 1),
    documentMaxBytes: integer(env, 'DOCUMENT_MAX_BYTES', 10 * 1024 * 1024, 1),
    documentConcurrency: integer(env, 'DOCUMENT_CONCURRENCY', 2, 1),
    jobLeaseMs: integer(env, 'JOB_LEASE_MS', 30_000, 100),
    jobPollMs: integer(env, 'JOB_POLL_MS', 1000, 5),
    tmxMaxBytes: integer(env, 'TMX_MAX_BYTES', 10 * 1024 * 1024, 1),
    voice: {
      speechEngine: env.SPEECH_ENGINE || 'pocketsphinx',
      speechEngineUrl: env.SPEECH_ENGINE_URL || undefined,
      speechEngineApiKey: env.SPEECH_ENGINE_API_KEY || undefined,
      speechEngineModel: env.SPEECH_ENGINE_MODEL || 'whisper-1',
      speechEngineTimeoutMs: integer(env, 'SPEECH_ENGINE_TIMEOUT_MS', 30_000, 1),
      tokenTtlMs: integer(env, 'VOICE_TOKEN_TTL_MS', 60_000, 1),
      sessionMaxMs: integer(env, 'VOICE_SESSION_MAX_MS', 3_600_000, 1),
      idleMs: integer(env, 'VOICE_IDLE_MS', 30_000, 1),
      partialMs: integer(env, 'VOICE_PARTIAL_MS', 1_000, 100),
      jobMaxBytes: integer(env, 'VOICE_JOB_MAX_BYTES', 100 * 1024 * 1024, 1),
    },
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  }
}

/** `--test-mode=deepl-mock` (or `--test-mode deepl-mock`) wins over `TEST_MODE`; an unknown mode is an error. */
function readTestMode(env: NodeJS.ProcessEnv, argv: readonly string[]): TestMode | undefined {
  let raw = env.TEST_MODE || undefined
  argv.forEach((arg, i) => {
    if (arg.startsWith('--test-mode=')) raw = arg.slice('--test-mode='.length)
    else if (arg === '--test-mode') raw = argv[i + 1] ?? ''
  })
  if (raw === undefined) return undefined
  if (!(TEST_MODES as readonly string[]).includes(raw))
    throw new Error(`Unknown test mode "${raw}": use ${TEST_MODES.join(', ')}`)
  return raw as TestMode
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`)
  return n
}
