/**
 * What the tests share: the API served over real HTTP (routeless/node on port 0) on a fresh SQLite or PostgreSQL
 * database, and a small client that keeps the session cookie like a browser would.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createTestDatabase, postgresAvailable, TEST_PG_URL } from '@routeless/example-kit/testing'
import pg from 'pg'
import { serve } from 'routeless/node'
import type { Kysely } from 'kysely'
import { describe } from 'vitest'
import { createConfigurationsApp } from '../src/app.ts'
import type { Schema } from '../src/schema.ts'
import { type ServiceOptions, type Services, openServices } from '../src/services.ts'

export interface TestDatabase {
  name: string
  /** Creates an empty database: the options that open it, and how to throw it away. */
  create(): Promise<{ options: Pick<ServiceOptions, 'dataDir' | 'databaseUrl'>; drop: () => Promise<void> }>
}

export const SQLITE: TestDatabase = {
  name: 'SQLite',
  async create() {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'configurations-'))
    return { options: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) }
  },
}

export const POSTGRES: TestDatabase = {
  name: 'PostgreSQL',
  async create() {
    const { url, drop } = await createTestDatabase('configurations')
    return { options: { databaseUrl: url }, drop }
  },
}

/**
 * PostgreSQL whose default collation follows a locale (ICU root), as on servers set up with en_US.UTF-8: there
 * `'n_1' < 'n1'`, where SQLite and the C locale say the opposite. Sorting must not depend on it.
 */
export const POSTGRES_LOCALE_AWARE: TestDatabase = {
  name: 'PostgreSQL with an ICU default collation',
  async create() {
    const name = `configurations_icu_${randomBytes(6).toString('hex')}`
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'und' LOCALE 'C.UTF-8'`)
    const url = new URL(TEST_PG_URL)
    url.pathname = `/${name}`
    return {
      options: { databaseUrl: url.toString() },
      drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    }
  },
}

async function adminQuery(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_PG_URL })
  await admin.connect()
  try {
    await admin.query(statement)
  } finally {
    await admin.end()
  }
}

const pgAvailable = await postgresAvailable()

/**
 * Declares the suite once per database (PostgreSQL skipped, loudly, only when no server answers), and once more on
 * a locale-aware PostgreSQL when `localeAware` is set.
 */
export function forEachDatabase(
  suite: (database: TestDatabase) => void,
  options: { localeAware?: boolean } = {},
): void {
  describe(SQLITE.name, () => suite(SQLITE))
  describe.skipIf(!pgAvailable)(POSTGRES.name, () => suite(POSTGRES))
  if (options.localeAware) describe.skipIf(!pgAvailable)(POSTGRES_LOCALE_AWARE.name, () => suite(POSTGRES_LOCALE_AWARE))
}

export const ALICE = { username: 'alice', password: 'secret' }
export const BOB = { username: 'bob', password: 'pw2' }

export interface RunningApi {
  url: string
  /** The options that open its database (a second instance on the same database opens it with them). */
  database: Pick<ServiceOptions, 'dataDir' | 'databaseUrl'>
  services: Services
  /** The database underneath, to check what is (not) stored. */
  db: Kysely<Schema>
  /** A new client without a session. */
  client(): Client
  /** A new client logged in as alice. */
  signedIn(user?: { username: string; password: string }): Promise<Client>
  close(): Promise<void>
}

/** Serves the API on a fresh database with alice and bob as users. */
export async function startApi(
  database: TestDatabase,
  options: Pick<ServiceOptions, 'now' | 'sessionTtl' | 'secureCookies' | 'loginLimits' | 'changePoll'> = {},
): Promise<RunningApi> {
  const { options: dbOptions, drop } = await database.create()
  const { services, db, close } = await openServices({ ...dbOptions, ...options })
  await Promise.all([
    services.users.save(ALICE.username, ALICE.password),
    services.users.save(BOB.username, BOB.password),
  ])
  const server = await serve(await createConfigurationsApp(services), { port: 0 })
  return {
    url: server.url,
    database: dbOptions,
    services,
    db,
    client: () => new Client(server.url),
    async signedIn(user = ALICE) {
      const client = new Client(server.url)
      const reply = await client.send('POST', '/login', { json: user })
      if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.text}`)
      return client
    },
    async close() {
      await server.close()
      await close()
      await drop()
    },
  }
}

export interface Reply {
  status: number
  headers: Headers
  text: string
  /** The body parsed as JSON (undefined when empty or not JSON). */
  body: any
}

export interface SendOptions {
  json?: unknown
  body?: string | Uint8Array
  headers?: Record<string, string>
}

/** A fetch client with a cookie jar of one cookie, `session`. */
export class Client {
  cookie: string | undefined

  constructor(readonly base: string) {}

  async send(method: string, path: string, options: SendOptions = {}): Promise<Reply> {
    const headers = new Headers(options.headers)
    if (this.cookie !== undefined && !headers.has('cookie')) headers.set('cookie', `session=${this.cookie}`)
    let body: string | Uint8Array | undefined = options.body
    if (options.json !== undefined) {
      body = JSON.stringify(options.json)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
    const response = await fetch(this.base + path, { method, headers, body: body as BodyInit | undefined })
    for (const setCookie of response.headers.getSetCookie()) {
      const match = /^session=([^;]*)/.exec(setCookie)
      if (match) this.cookie = /Max-Age=0\b/i.test(setCookie) ? undefined : match[1]
    }
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = text === '' ? undefined : JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { status: response.status, headers: response.headers, text, body: parsed }
  }

  get = (path: string, options?: SendOptions) => this.send('GET', path, options)
  post = (path: string, json?: unknown) => this.send('POST', path, json === undefined ? {} : { json })
  patch = (path: string, json?: unknown) => this.send('PATCH', path, json === undefined ? {} : { json })
  delete = (path: string) => this.send('DELETE', path)
}

/** A record's input fields. */
export function record(name: string, overrides: Partial<{ hostname: string; port: number; username: string }> = {}) {
  return { name, hostname: `${name.toLowerCase()}.example.com`, port: 22, username: 'deploy', ...overrides }
}
