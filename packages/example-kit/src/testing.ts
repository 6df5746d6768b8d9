/**
 * Test helpers shared by the examples: a fresh PostgreSQL database per test file.
 *
 * The server comes from TEST_PG_URL (an admin URL), default postgres://postgres:postgres@127.0.0.1:5432/postgres.
 * `.ci/run` installs and starts it. When none answers, the PostgreSQL tests are skipped with a loud message —
 * except under CI=1 / REQUIRE_PG=1, where that is a failure.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'

export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres'

let available: Promise<boolean> | undefined

/** True when the test PostgreSQL server answers. Throws instead under CI=1 or REQUIRE_PG=1. */
export function postgresAvailable(): Promise<boolean> {
  available ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 })
    try {
      await client.connect()
      await client.end()
      return true
    } catch (error) {
      const message = `\n!!! PostgreSQL at ${TEST_PG_URL} is not reachable (${(error as Error).message}): PostgreSQL tests are SKIPPED.\n!!! Start one (see .ci/run) or set TEST_PG_URL.\n`
      if (process.env.CI === '1' || process.env.REQUIRE_PG === '1') throw new Error(message)
      console.warn(message)
      return false
    }
  })()
  return available
}

/** Creates an empty database and returns its URL plus a function that drops it. */
export async function createTestDatabase(prefix = 'test'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_')
  const admin = new pg.Client({ connectionString: TEST_PG_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(TEST_PG_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: TEST_PG_URL })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

export { listedRequests, routedTo, type ListedRequest } from './every-route.ts'
