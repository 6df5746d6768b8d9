/** Test helper: the translation API served over real HTTP on a free port, on SQLite (temp dir) or PostgreSQL. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createTestDatabase } from '@routeless/example-kit/testing'
import { serve } from 'routeless/node'
import { afterAll, beforeAll } from 'vitest'
import { serve as serveUws } from 'routeless/uws'
import { createTranslationApp, type AppOverrides, type TranslationApp } from '../src/app.ts'
import { readConfig, type Config } from '../src/config.ts'

export const ADMIN_KEY = 'test-admin-key:adm'
export const API_KEY = 'test-api-key'

export type Storage = 'sqlite' | 'postgres'

export interface TestServer {
  url: string
  app: TranslationApp
  /** Stops the server and closes the database (keeps the data: see `restart`). */
  stop(): Promise<void>
  /** Stops, then serves the same data again. */
  restart(): Promise<TestServer>
  /** Stops and deletes the data. */
  close(): Promise<void>
}

export interface StartOptions extends AppOverrides {
  storage?: Storage
  env?: Record<string, string>
  /** node:http (default) or uWebSockets.js. */
  server?: 'node' | 'uws'
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const storage = options.storage ?? 'sqlite'
  const dataDir = mkdtempSync(path.join(tmpdir(), 'translation-test-'))
  const pg = storage === 'postgres' ? await createTestDatabase('translation') : undefined
  const config = readConfig({
    ADMIN_KEY,
    API_KEY,
    DATA_DIR: dataDir,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
    ...options.env,
  })
  const cleanup = async () => {
    rmSync(dataDir, { recursive: true, force: true })
    await pg?.drop()
  }
  return run(config, options, cleanup)
}

async function run(config: Config, options: StartOptions, cleanup: () => Promise<void>): Promise<TestServer> {
  const app = await createTranslationApp(config, options)
  const { handle } = app
  const at = { host: '127.0.0.1', port: 0 }
  // uWS serves the core's answer; the deepl-mock test mode has none (its hooks wrap fetch), so it is node only.
  const server =
    options.server === 'uws' ? await serveUws({ ...app, handle: handle ?? unservable }, at) : await serve(app, at)
  const stop = async () => {
    await server.close()
    await app.close()
  }
  return {
    url: server.url,
    app,
    stop,
    restart: async () => {
      await stop()
      return run(config, options, cleanup)
    },
    close: async () => {
      await stop()
      await cleanup()
    },
  }
}

export type Api = ReturnType<typeof api>

/**
 * The file's server: started before its tests, closed after them. `server` and `call` (fetch with the test key) are
 * read inside tests, once started: `const { server, call } = served` would read them too early.
 */
export function useServer(options: StartOptions = {}): { readonly server: TestServer; readonly call: Api } {
  const state = {} as { server: TestServer; call: Api }
  beforeAll(async () => {
    state.server = await startServer(options)
    state.call = api(state.server)
  })
  afterAll(() => state.server?.close())
  return state
}

/** fetch with the DeepL auth header. */
export function api(server: { url: string }, key: string = API_KEY) {
  return (pathname: string, init: RequestInit & { json?: unknown; form?: Record<string, string | string[]> } = {}) => {
    const headers = new Headers(init.headers)
    if (key) headers.set('Authorization', `DeepL-Auth-Key ${key}`)
    let body = init.body
    if (init.json !== undefined) {
      headers.set('Content-Type', 'application/json')
      body = JSON.stringify(init.json)
    } else if (init.form !== undefined) {
      const params = new URLSearchParams()
      for (const [k, v] of Object.entries(init.form))
        for (const item of Array.isArray(v) ? v : [v]) params.append(k, item)
      headers.set('Content-Type', 'application/x-www-form-urlencoded')
      body = params.toString()
    }
    const method = init.method ?? (body !== undefined ? 'POST' : 'GET')
    return fetch(server.url + pathname, { ...init, method, headers, body })
  }
}

function unservable(): never {
  throw new Error('the deepl-mock test mode is served by routeless/node only')
}
