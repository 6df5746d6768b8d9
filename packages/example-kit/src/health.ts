/**
 * Readiness, as the examples' `GET /readyz` answers it: every dependency (the database, Redis where configured)
 * probed at once, each within a short timeout so that the check never hangs on a server that accepts and does not
 * answer; not ready while any is down, or while the server drains (`this.env.draining`, set by routeless on SIGTERM).
 * `GET /healthz` (alive) probes nothing: a process that answers it is alive, and restarting it would not bring a
 * database back.
 */
import { sql, type Kysely } from 'kysely'

/** Something the app cannot serve without, and how to tell that it answers. */
export interface Dependency {
  name: string
  /** Resolves when the dependency answers; rejects (or never settles) when it does not. */
  probe(): Promise<unknown>
}

export type CheckResult = 'up' | 'down' | 'timeout'

/** The body of `/readyz`: 200 when `ready`, else 503. */
export interface ReadinessReport {
  status: 'ready' | 'not ready' | 'draining'
  /** The dependencies that did not answer, by name. */
  down: string[]
  checks: Record<string, CheckResult>
}

/** How long each probe may take, in ms. */
export const PROBE_TIMEOUT = 1000

/** The readiness of an app with these dependencies. */
export class Readiness {
  constructor(
    private readonly dependencies: readonly Dependency[],
    private readonly timeoutMs = PROBE_TIMEOUT,
  ) {}

  /** Probes every dependency (at once), and says whether the app can take traffic. */
  async check(options: { draining?: boolean } = {}): Promise<ReadinessReport> {
    const results = await Promise.all(this.dependencies.map((d) => probe(d, this.timeoutMs)))
    const checks: Record<string, CheckResult> = {}
    const down: string[] = []
    this.dependencies.forEach((d, i) => {
      checks[d.name] = results[i]!
      if (results[i] !== 'up') down.push(d.name)
    })
    const status = options.draining ? 'draining' : down.length > 0 ? 'not ready' : 'ready'
    return { status, down, checks }
  }
}

async function probe(dependency: Dependency, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs)
  })
  try {
    return await Promise.race([
      dependency.probe().then(
        (): CheckResult => 'up',
        (): CheckResult => 'down',
      ),
      timeout,
    ])
  } finally {
    clearTimeout(timer)
  }
}

/** The database answers a `SELECT 1`. */
export function databaseDependency(db: Kysely<any>): Dependency {
  return { name: 'database', probe: () => sql`SELECT 1`.execute(db) }
}

/** Redis answers a `PING`. */
export function redisDependency(redis: { ping(): Promise<unknown> }): Dependency {
  return { name: 'redis', probe: () => redis.ping() }
}
