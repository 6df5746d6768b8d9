/** Builds the services and the routeless application of the translation example. */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  databaseDependency,
  JobQueue,
  openDatabase,
  Readiness,
  redisDependency,
  type Database,
} from '@routeless/example-kit'
import { createApp, type Application, type UpgradeDecision } from 'routeless'
import { Redis } from 'ioredis'
import { keyRateLimit } from './auth/key-rate-limit.ts'
import { RedisTokenBucketStore } from './auth/redis-token-bucket.ts'
import type { Config } from './config.ts'
import { migrations } from './database/migrations.ts'
import type { TranslationDatabase } from './database/schema.ts'
import type { TranslationEngine } from './engines/engine.ts'
import { DocumentService } from './documents/document-service.ts'
import { MemoryStore } from './memories/memory-store.ts'
import { CustomInstructions } from './styles/custom-instructions.ts'
import { StyleStore } from './styles/style-store.ts'
import { createEngine } from './engines/create-engine.ts'
import { LanguageDetector } from './engines/language-detector.ts'
import { GlossaryStore } from './glossaries/glossary-store.ts'
import { corsOptions } from './http/cors.ts'
import { renderDeepLError } from './http/deepl-error.ts'
import { deeplOpenApi } from './http/openapi.ts'
import { KeyStore } from './keys/key-store.ts'
import type { Services } from './services.ts'
import { handleWithTraceId, withTraceId, type FetchHandler } from './trace-id.ts'
import { TranslationService } from './translate/translation-service.ts'
import { Meter } from './usage/meter.ts'
import { createSpeechEngine } from './speech/create-speech-engine.ts'
import { EngineProcesses } from './speech/engine-processes.ts'
import { EspeakSynthesizer } from './speech/espeak-synthesizer.ts'
import type { SpeechEngine, SpeechSynthesizer } from './speech/speech-engine.ts'
import { SpeechUsage } from './voice/speech-usage.ts'
import { VoiceService } from './voice/voice-service.ts'
import { VoiceSessions } from './voice/voice-sessions.ts'
import { QualityJobs } from './quality/quality-jobs.ts'
import { TmxTransfer } from './memories/tmx-transfer.ts'
import { VoiceJobs } from './voice/voice-jobs.ts'
import { UsageStore } from './usage/usage-store.ts'
import { MockAccounts } from './mock/accounts.ts'
import { withDeepLMock } from './mock/deepl-mock.ts'
import { FixtureMemoryStore, FixtureStyleStore } from './mock/fixtures.ts'
import { MockSessions } from './mock/sessions.ts'

export const CONTROLLERS = fileURLToPath(new URL('../controllers', import.meta.url))

export interface TranslationApp {
  fetch: FetchHandler
  /**
   * The core's answer (what routeless/uws serves, and routeless/node prefers), with X-Trace-ID. Absent in the
   * deepl-mock test mode, whose hooks wrap `fetch`: that mode is served by routeless/node through `fetch` only.
   */
  handle?: Application['handle']
  /** WebSocket upgrades (the voice stream), decided by the controllers' WEBSOCKET handlers; refusals carry X-Trace-ID. */
  upgrade(request: Request, env?: Record<string, unknown>): Promise<UpgradeDecision>
  socketError(error: unknown): void
  services: Services
  database: Database<TranslationDatabase>
  /**
   * The instance has begun to stop (SIGTERM, before the server's drain delay): work in progress goes on through the
   * drain, and a speech engine that ends from now on ends because the instance is going away
   * (src/speech/engine-processes.ts).
   */
  drain(): void
  /** After the server's drain: stops the job workers, ends the speech engines still running, closes the database. */
  close(): Promise<void>
}

export interface AppOverrides {
  /** An engine instance instead of the configured one (tests). */
  engine?: TranslationEngine
  /** A speech engine and a synthesizer instead of the configured ones (tests). */
  speech?: SpeechEngine
  synthesizer?: SpeechSynthesizer
  now?: () => Date
}

export async function createTranslationApp(config: Config, overrides: AppOverrides = {}): Promise<TranslationApp> {
  if (config.redisUrl && !/^rediss?:\/\//.test(config.redisUrl))
    throw new Error(`Unsupported REDIS_URL "${config.redisUrl}": use redis://…`)
  const database = await openDatabase<TranslationDatabase>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    fileName: 'translation.sqlite',
    migrations,
  })
  // Commands wait (queued by ioredis) while Redis is unreachable; a request then fails rather than pass unlimited.
  const redis =
    config.redisUrl && config.rateLimit
      ? new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 })
      : undefined
  redis?.on('error', () => {}) // reported to the request that needed Redis
  const engineProcesses = new EngineProcesses()
  try {
    const now = overrides.now ?? (() => new Date())
    const keys = new KeyStore(database.db, now)
    if (config.adminKey) await keys.ensure({ admin: true, secret: config.adminKey })
    if (config.apiKey) await keys.ensure({ admin: false, secret: config.apiKey })
    const usage = new UsageStore(database.db)
    // TEST_MODE=deepl-mock: accounts made on first use, deepl-mock's fixtures in every key's lists (src/mock/).
    const deeplMock = config.testMode === 'deepl-mock'
    const mockAccounts = deeplMock ? new MockAccounts(keys) : undefined
    const meter = new Meter(usage, now, mockAccounts)
    const glossaries = new GlossaryStore(database.db, now)
    const memories = deeplMock ? new FixtureMemoryStore(database.db, now) : new MemoryStore(database.db, now)
    const styles = deeplMock ? new FixtureStyleStore(database.db, now) : new StyleStore(database.db, now)
    const translation = new TranslationService({
      engine: overrides.engine ?? createEngine(config.engine),
      detector: new LanguageDetector(),
      glossaries,
      memories,
      styles,
      meter,
      engineTimeoutMs: config.engine.timeoutMs,
    })
    const queue = new JobQueue(database, {
      leaseMs: config.jobLeaseMs,
      pollMs: config.jobPollMs,
      concurrency: config.documentConcurrency,
    })
    const documents = new DocumentService({
      db: database.db,
      queue,
      dir: path.join(config.dataDir, 'documents'),
      translation,
      keys,
      meter,
      now,
      maxBytes: config.documentMaxBytes,
      concurrency: config.documentConcurrency,
      convertFormats: !deeplMock, // deepl-mock delivers output_format's result unconverted
    })
    const speechUsage = new SpeechUsage(database.db, now)
    const speech = overrides.speech ?? createSpeechEngine(config.voice, engineProcesses)
    const synthesizer = overrides.synthesizer ?? new EspeakSynthesizer(engineProcesses)
    const voice = new VoiceService({
      sessions: new VoiceSessions(database.db, speechUsage, now, config.voice.tokenTtlMs),
      usage: speechUsage,
      keys,
      glossaries,
      translation,
      speech,
      synthesizer,
      limits: {
        maxMs: config.voice.sessionMaxMs,
        idleMs: config.voice.idleMs,
        engineTimeoutMs: config.voice.speechEngineTimeoutMs,
        partialMs: config.voice.partialMs,
      },
      onError: (error) => console.error('voice:', error),
    })
    const services: Services = {
      voice,
      quality: new QualityJobs(database.db, glossaries, now),
      tmx: new TmxTransfer(memories, config.tmxMaxBytes, now),
      voiceJobs: new VoiceJobs({
        db: database.db,
        queue,
        keys,
        usage: speechUsage,
        translation,
        speech,
        synthesizer,
        engineTimeoutMs: config.voice.speechEngineTimeoutMs,
        maxBytes: config.voice.jobMaxBytes,
        now,
      }),
      keys,
      usage,
      meter,
      glossaries,
      translation,
      documents,
      memories,
      styles,
      customInstructions: new CustomInstructions(database.db, now),
      rateLimit: keyRateLimit(
        config.rateLimit,
        undefined,
        redis && config.rateLimit && new RedisTokenBucketStore(redis, config.rateLimit.requests),
      ),
      openapi: () => ({}),
      readiness: new Readiness(
        redis ? [databaseDependency(database.db), redisDependency(redis)] : [databaseDependency(database.db)],
      ),
      customTagPageSize: config.customTagPageSize,
      now,
    }
    const app = await createApp(CONTROLLERS, {
      context: services,
      renderError: renderDeepLError,
      cwd: path.dirname(CONTROLLERS),
      cors: corsOptions(config.corsOrigins),
      metrics: true, // GET /metrics: request durations by route template (prom-client)
      docs: { openapi: '/openapi.json' }, // the API reference page at /docs, of the document below
    })
    const openapi = deeplOpenApi(app)
    services.openapi = () => openapi
    await queue.start()
    return {
      fetch: withTraceId(
        mockAccounts ? withDeepLMock(app.fetch, { sessions: new MockSessions(), accounts: mockAccounts }) : app.fetch,
      ),
      services,
      database,
      ...(mockAccounts ? {} : { handle: handleWithTraceId(app) }),
      upgrade: async (request, env) => {
        const decision = await app.upgrade(request, env)
        if (!decision.accepted) decision.response = await withTraceId(async () => decision.response)(request)
        return decision
      },
      socketError: (error) => console.error('websocket:', error),
      drain: () => engineProcesses.drain(),
      close: async () => {
        await queue.stop() // voice jobs finish first, their engines still running
        await engineProcesses.stop()
        await database.close()
        redis?.disconnect()
      },
    }
  } catch (error) {
    redis?.disconnect()
    await database.close()
    throw error
  }
}
