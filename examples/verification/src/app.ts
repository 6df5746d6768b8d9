/** Builds the whole service: database, stores, the routeless app over `controllers/`, and the worker. */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { databaseDependency, openDatabase, Readiness } from '@routeless/example-kit'
import { createApp, type Application } from 'routeless'
import { normalisePartnerId, PartnerStore } from './auth/partners.ts'
import { deriveKey } from './auth/sealed-secret.ts'
import { TokenService } from './auth/tokens.ts'
import { DeliveryStore } from './callbacks/delivery-store.ts'
import { BODY_LIMIT, type Config } from './config.ts'
import { FraudReports } from './fraud/fraud-reports.ts'
import { renderApiError } from './http/errors.ts'
import { verificationOpenApi } from './http/openapi.ts'
import { EnrollmentStore } from './jobs/enrollments.ts'
import { JobStore } from './jobs/job-store.ts'
import { createQueue, Worker } from './jobs/worker.ts'
import { HostedLinkStore } from './links/hosted-link-store.ts'
import type { Services } from './services.ts'
import { migrations } from './storage/migrations.ts'
import type { Database } from './storage/schema.ts'
import { loadServerSecret } from './storage/server-secret.ts'

export const CONTROLLERS = fileURLToPath(new URL('../controllers', import.meta.url))

export interface VerificationService {
  app: Application
  services: Services
  worker: Worker
  /** Stops the worker and closes the database. */
  close(): Promise<void>
}

export async function createVerificationService(config: Config): Promise<VerificationService> {
  const database = await openDatabase<Database>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    fileName: 'verification.sqlite',
    migrations,
  })
  const { db } = database
  const secret = await loadServerSecret(db, config.serverSecret)
  const queue = createQueue(database, config)
  const services: Services = {
    config,
    db,
    partners: new PartnerStore(db, deriveKey(secret, 'seal')),
    tokens: new TokenService(deriveKey(secret, 'jwt'), config.tokenTtlSeconds),
    jobs: new JobStore(db, queue),
    deliveries: new DeliveryStore(db, queue),
    enrollments: new EnrollmentStore(db),
    fraud: new FraudReports(db),
    links: new HostedLinkStore(db),
    wake: () => queue.wake(),
    openapi: () => ({}),
    readiness: new Readiness([databaseDependency(db)]),
  }
  const worker = new Worker(queue, services)
  const app = await createApp(CONTROLLERS, {
    context: services,
    bodyLimit: BODY_LIMIT,
    renderError: renderApiError,
    metrics: true, // GET /metrics: request durations by route template (prom-client)
    docs: { openapi: '/openapi.json' }, // the API reference page at /docs
  })
  requireTypes(app)
  const openapi = verificationOpenApi(app)
  services.openapi = () => openapi
  return {
    app,
    services,
    worker,
    async close() {
      await worker.stop()
      await database.close()
    },
  }
}

/** Registers the start-up partner and key (PARTNER_ID, API_KEY), stored hashed. */
export async function registerConfiguredPartner(services: Services): Promise<void> {
  const { partnerId, apiKey, partnerCallbackUrl } = services.config
  if (!partnerId && !apiKey) return
  const id = partnerId && normalisePartnerId(partnerId)
  if (!id) throw new Error(`PARTNER_ID must be a positive number, got "${partnerId ?? ''}"`)
  if (!apiKey) throw new Error('API_KEY is required with PARTNER_ID')
  const existing = await services.partners.find(id)
  await services.partners.upsert(
    id,
    existing?.name ?? `Partner ${id}`,
    partnerCallbackUrl ?? existing?.callbackUrl ?? null,
  )
  await services.partners.addKey(id, apiKey)
}

/**
 * The handlers' types are this API's contract (README, "The types are the contract"): without them routeless would
 * bind by name and check nothing, so the service refuses to start instead (no `typescript` installed and no manifest
 * from `routeless build`, or a manifest older than the controllers).
 */
export function requireTypes(app: Application): void {
  const untyped = [...app.table.handlers()]
    .filter((h) => !h.types)
    .map((h) => `${h.className}.${h.name} (${path.relative(CONTROLLERS, h.file)})`)
  if (untyped.length === 0) return
  throw new Error(
    `The handlers' types are unknown for ${untyped.join(', ')}: install typescript, or run \`npx routeless build\` in ${path.dirname(CONTROLLERS)} and ship .routeless/manifest.json`,
  )
}
