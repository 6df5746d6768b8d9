/**
 * Test helpers shared by the examples: a fresh PostgreSQL database per test file.
 *
 * The server comes from TEST_PG_URL (an admin URL), default postgres://postgres:postgres@127.0.0.1:5432/postgres.
 * `.ci/run` installs and starts it. When none answers, the PostgreSQL tests are skipped with a loud message —
 * except under CI=1 / REQUIRE_PG=1, where that is a failure.
 */
import { spawn, type ChildProcess } from 'node:child_process'
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

export interface ChildInstance {
  url: string
  child: ChildProcess
  /** Kills the process (SIGKILL unless told otherwise) and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>
}

/**
 * Runs an example's entry file (`src/main.ts`) in its own process, as a separate instance would run, and resolves
 * once it prints `listening on <url>`. Tests kill (SIGKILL) or stall (SIGSTOP) it to play a dying or frozen instance.
 * `detached`: in a process group of its own.
 */
export async function startChildInstance(
  entry: string,
  env: Record<string, string>,
  options: { args?: string[]; cwd?: string; timeoutMs?: number; detached?: boolean } = {},
): Promise<ChildInstance> {
  const timeoutMs = options.timeoutMs ?? 30_000
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group (its pid), with every process it starts: `process.kill(-pid, signal)` signals them all at
    // once, as systemd stops a service (KillMode=control-group).
    detached: options.detached,
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL printed by ${entry} in ${timeoutMs / 1000} s:\n${output}`)),
      timeoutMs,
    )
    const onData = (chunk: Buffer) => {
      output += chunk
      const m = / on (http:\/\/[^\s,()]+)/.exec(output)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk))
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${entry} exited (${code}):\n${output}`))
    })
  })
  child.stdout!.resume()
  child.stderr!.resume()
  return {
    url,
    child,
    kill: async (signal = 'SIGKILL') => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGCONT')
      child.kill(signal)
      await exited
    },
  }
}

export { listedRequests, routedTo, type ListedRequest } from './every-route.ts'
export { untypedFields } from './openapi-coverage.ts'
export { seededRandom } from './seeded-random.ts'
export { authorize, browserTested, describeDocsPage, launchChromium, tryItOut } from './docs-page.ts'
export { freePort, NGINX, type Nginx, ReadinessGate, startNginx } from './nginx.ts'
export {
  PG_BIN,
  type PrivatePostgres,
  type PrivateRedis,
  startPrivatePostgres,
  startPrivateRedis,
} from './private-servers.ts'
