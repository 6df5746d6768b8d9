/** Starts the verification service on a free port over real HTTP, with fast sandbox and retry timings. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serve } from 'routeless/node'
import { createVerificationService, registerConfiguredPartner, type VerificationService } from '../../src/app.ts'
import { readConfig, type Config } from '../../src/config.ts'
import type { Services } from '../../src/services.ts'

export const PARTNER_ID = '1234'
export const API_KEY = 'test-api-key'
export const SERVER_SECRET = 'test-server-secret'

export interface TestServer {
  url: string
  service: VerificationService
  services: Services
  dataDir: string
  /** Stops serving and the worker, closes the database (the data stays). */
  stop(): Promise<void>
  /** stop() and remove the data directory. */
  close(): Promise<void>
}

export async function startServer(
  options: { dataDir?: string; databaseUrl?: string; worker?: boolean; config?: Partial<Config> } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'verification-test-'))
  const config: Config = {
    ...readConfig({}),
    port: 0,
    dataDir,
    databaseUrl: options.databaseUrl,
    serverSecret: SERVER_SECRET,
    partnerId: PARTNER_ID,
    apiKey: API_KEY,
    sandboxDelayMs: 100,
    workerPollMs: 200,
    callbackBackoffMs: 40,
    callbackTimeoutMs: 2000,
    ...options.config,
  }
  const service = await createVerificationService(config)
  await registerConfiguredPartner(service.services)
  if (options.worker !== false) await service.worker.start()
  const server = await serve(service.app, { host: '127.0.0.1', port: 0 })
  config.publicUrl = server.url
  const stop = async () => {
    await server.close()
    await service.close()
  }
  return {
    url: server.url,
    service,
    services: service.services,
    dataDir,
    stop,
    async close() {
      await stop()
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
