/**
 * Test helper: several instances of the translation API on ONE PostgreSQL database (each with its own data
 * directory, as separate machines would have), served over real HTTP — what a load balancer spreads requests over.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createTestDatabase } from '@routeless/example-kit/testing'
import { serve } from 'routeless/node'
import { createTranslationApp, type AppOverrides, type TranslationApp } from '../src/app.ts'
import { readConfig } from '../src/config.ts'
import { ADMIN_KEY, API_KEY } from './_server.ts'

export interface Instance {
  url: string
  app: TranslationApp
  stop(): Promise<void>
}

export interface Cluster {
  databaseUrl: string
  instances: Instance[]
  /** Starts one more instance on the same database. */
  start(overrides?: AppOverrides & { env?: Record<string, string> }): Promise<Instance>
  close(): Promise<void>
}

/** Starts `count` instances together (concurrently, like replicas of one deployment). */
export async function startCluster(
  count: number,
  options: AppOverrides & { env?: Record<string, string> } = {},
): Promise<Cluster> {
  const database = await createTestDatabase('translation_scale')
  const dirs: string[] = []
  const instances: Instance[] = []
  const start = async (overrides: AppOverrides & { env?: Record<string, string> } = options): Promise<Instance> => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'translation-scale-'))
    dirs.push(dataDir)
    const config = readConfig({ ADMIN_KEY, API_KEY, DATA_DIR: dataDir, DATABASE_URL: database.url, ...overrides.env })
    const app = await createTranslationApp(config, overrides)
    const server = await serve(app, { port: 0 })
    let stopped = false
    const instance: Instance = {
      url: server.url,
      app,
      stop: async () => {
        if (stopped) return
        stopped = true
        await server.close()
        await app.close()
      },
    }
    instances.push(instance)
    return instance
  }
  try {
    await Promise.all(Array.from({ length: count }, () => start()))
  } catch (error) {
    await Promise.allSettled(instances.map((i) => i.stop()))
    await database.drop()
    throw error
  }
  return {
    databaseUrl: database.url,
    instances,
    start,
    close: async () => {
      await Promise.allSettled(instances.map((i) => i.stop()))
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
      await database.drop()
    },
  }
}
