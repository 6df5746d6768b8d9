/**
 * Every behaviour is written once and run against every way of serving: in-process `app.fetch`; real node:http and
 * uWebSockets.js servers (`routeless/node`, `routeless/uws`); `routeless/fetch` (@whatwg-node/server) on node:http;
 * and the other runtimes in child processes — Bun (`Bun.serve`), Deno (`Deno.serve`) and workerd (the tree built with
 * `routeless build --target=worker`) — each on a random loopback port. `describeTargets` appends the target's name to
 * each title. What a target cannot do is said once, in `LIMITS`, and a test meets it with `skipWhere`; a target this
 * run leaves out (`_matrix.ts`: uWebSockets.js on a node it has no build for, CI's passes on other Node.js versions)
 * has its describes listed as skipped with the reason.
 */
import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, type TestContext } from 'vitest'
import type { Application } from 'routeless'
import { createServerAdapter } from 'routeless/fetch'
import { serve, type RunningServer } from 'routeless/node'
import { serve as serveUws } from 'routeless/uws'
import { leftOut } from './_matrix.ts'
import type { AppFactory } from './_apps.ts'
import { notPortable, register, startRuntime, type Runtime } from './_runtimes.ts'

export type TargetName = 'fetch' | 'node' | 'uws' | 'whatwg' | Runtime

export interface Target {
  name: TargetName
  /** Sends a request with a bare path (`/foo?x=1`) and returns the Response. */
  request(path: string, init?: RequestInit): Promise<Response>
  /** Base URL for raw clients (real servers only). */
  url?: string
}

/** In this process: the app the test built serves the requests. */
export const IN_PROCESS: TargetName[] = ['fetch', 'node', 'uws', 'whatwg']
/** Another runtime, in a child process: it builds the same app from the fixture's tree and options. */
export const RUNTIMES: Runtime[] = ['bun', 'deno', 'workerd']
/** The `compiled` project (vitest.config.ts) runs the in-process targets only: the child runtimes' apps are their own. */
export const TARGETS: TargetName[] =
  process.env.ROUTELESS_COMPILED === 'generated' ? IN_PROCESS : [...IN_PROCESS, ...RUNTIMES]

/** What a target cannot do, and why: docs/runtimes.md's table says the same. */
export type Limit = 'websockets' | 'logs' | 'get-body' | 'early-refusal' | 'check-returns'

export const LIMITS: Partial<Record<TargetName, Partial<Record<Limit, string>>>> = {
  whatwg: {
    websockets: '@whatwg-node/server has no WebSocket upgrade: routeless/node and routeless/uws serve them',
    'get-body': "the adapter's Fetch Request cannot carry a GET's body: it is dropped before routeless sees it",
  },
  bun: {
    logs: 'the application logs in the Bun process',
    'get-body': "Bun.serve's Fetch Request cannot carry a GET's body: it is dropped before routeless sees it",
  },
  deno: {
    logs: 'the application logs in the Deno process',
    'get-body': "Deno.serve's Fetch Request cannot carry a GET's body: it is dropped before routeless sees it",
  },
  workerd: {
    logs: 'the application logs in the workerd process',
    'get-body': "workerd's Fetch Request cannot carry a GET's body: it is dropped before routeless sees it",
    'check-returns':
      'checkReturns compiles Ajv validators at run time, which a Worker refuses (no code from strings): it is a Node.js, Bun and Deno development option',
    'early-refusal':
      'workerd closes the connection once it answers a body it did not read to the end: a client still streaming that body (node fetch) fails with EPIPE before it reads the 413',
  },
}

/** A text type as `target`'s own `Blob` and `File` report it: Bun's add `;charset=utf-8` to text types. */
export function blobType(target: Target, type: string): string {
  return target.name === 'bun' ? `${type};charset=utf-8` : type
}

/** Skips the running test where `target` cannot do `limit`, saying why. */
export function skipWhere(target: Target, limit: Limit, ctx: TestContext): void {
  const reason = LIMITS[target.name]?.[limit]
  if (reason) ctx.skip(`${target.name}: ${reason}`)
}

async function startTarget(
  name: TargetName,
  makeApp: AppFactory,
): Promise<{ target: Target; stop: () => Promise<void> }> {
  if (name === 'bun' || name === 'deno' || name === 'workerd') {
    const running = await startRuntime(name, makeApp.fixture!)
    return {
      target: { name, url: running.url, request: (path, init) => fetch(running.url + path, init) },
      stop: running.stop,
    }
  }
  return serveInProcess(name, await makeApp())
}

async function serveInProcess(
  name: TargetName,
  app: Application,
): Promise<{ target: Target; stop: () => Promise<void> }> {
  if (name === 'fetch') {
    return { target: { name, request: (path, init) => app.request(path, init) }, stop: async () => {} }
  }
  if (name === 'whatwg') {
    const server = createServer(createServerAdapter(app))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
    return {
      target: { name, url, request: (path, init) => fetch(url + path, init) },
      stop: () => new Promise<void>((r) => server.close(() => r()).closeAllConnections()),
    }
  }
  const server: RunningServer = await (name === 'uws' ? serveUws : serve)(app, { host: '127.0.0.1', port: 0 })
  return {
    target: { name, url: server.url, request: (path, init) => fetch(server.url + path, init) },
    stop: () => server.close(),
  }
}

/**
 * Runs `fn` once per target with a lazily started server for `makeApp()`. The other runtimes build the app from
 * `makeApp.fixture` (`fixtureApp` sets it); an app the test makes itself, or options holding functions, run in this
 * process only, and the other runtimes' describes are listed as skipped with the reason.
 */
export function describeTargets(
  title: string,
  makeApp: AppFactory,
  fn: (t: () => Target) => void,
  /** What the whole describe needs: a target that cannot do it has its describe listed as skipped, with the reason. */
  needs?: Limit,
): void {
  const unportable = notPortable(makeApp.fixture)
  if (!unportable) register(makeApp.fixture!)
  for (const name of TARGETS) {
    const limited = needs && LIMITS[name]?.[needs]
    const reason = leftOut(name) ?? limited ?? (RUNTIMES.includes(name as Runtime) ? unportable : undefined)
    if (reason) {
      describe.skip(`${title} [${name}]: skipped, ${reason}`, () => fn(() => ({ name, request: fetch })))
      continue
    }
    describe(`${title} [${name}]`, () => {
      let current: Target
      let stop: () => Promise<void> = async () => {}
      beforeAll(async () => {
        const started = await startTarget(name, makeApp)
        current = started.target
        stop = started.stop
      })
      afterAll(() => stop())
      fn(() => current)
    })
  }
}

/** Runs `check` against `app` served each way in this process in turn: for an app a test builds itself (a manifest, a bundle). */
export async function onEveryTarget(app: Application, check: (t: Target) => Promise<void>): Promise<void> {
  for (const name of IN_PROCESS) {
    if (leftOut(name)) continue
    const { target, stop } = await serveInProcess(name, app)
    try {
      await check(target)
    } finally {
      await stop()
    }
  }
}
