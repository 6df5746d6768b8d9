/**
 * Every behaviour is written once and run against every way of serving: in-process `app.fetch`, a real node:http
 * server and a real uWebSockets.js server, each on a random loopback port. `describeTargets` appends the target's
 * name to each title.
 */
import { afterAll, beforeAll, describe } from 'vitest'
import type { Application } from 'routeless'
import { serve, type RunningServer } from 'routeless/node'
import { serve as serveUws } from 'routeless/uws'

export type TargetName = 'fetch' | 'node' | 'uws'

export interface Target {
  name: TargetName
  /** Sends a request with a bare path (`/foo?x=1`) and returns the Response. */
  request(path: string, init?: RequestInit): Promise<Response>
  /** Base URL for raw clients (real servers only). */
  url?: string
}

export const TARGETS: TargetName[] = ['fetch', 'node', 'uws']

async function startTarget(name: TargetName, app: Application): Promise<{ target: Target; stop: () => Promise<void> }> {
  if (name === 'fetch') {
    return { target: { name, request: (path, init) => app.request(path, init) }, stop: async () => {} }
  }
  const server: RunningServer = await (name === 'uws' ? serveUws : serve)(app, { host: '127.0.0.1', port: 0 })
  return {
    target: { name, url: server.url, request: (path, init) => fetch(server.url + path, init) },
    stop: () => server.close(),
  }
}

/** Runs `fn` once per target with a lazily started server for `makeApp()`. */
export function describeTargets(
  title: string,
  makeApp: () => Promise<Application>,
  fn: (t: () => Target) => void,
): void {
  for (const name of TARGETS) {
    describe(`${title} [${name}]`, () => {
      let current: Target
      let stop: () => Promise<void> = async () => {}
      beforeAll(async () => {
        const started = await startTarget(name, await makeApp())
        current = started.target
        stop = started.stop
      })
      afterAll(() => stop())
      fn(() => current)
    })
  }
}

/** Runs `check` against `app` served each way in turn: for an app a test builds itself (a manifest, a bundle). */
export async function onEveryTarget(app: Application, check: (t: Target) => Promise<void>): Promise<void> {
  for (const name of TARGETS) {
    const { target, stop } = await startTarget(name, app)
    try {
      await check(target)
    } finally {
      await stop()
    }
  }
}
