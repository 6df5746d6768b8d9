/**
 * Builds applications from the fixture controller trees in test/fixtures/<scenario>. A factory carries what it is
 * made of (`fixture`: the trees and the options), so another runtime can build the same application in its own
 * process (`test/_runtimes.ts`).
 */
import { fileURLToPath } from 'node:url'
import { createApp, type AppOptions, type Application } from 'routeless'

export const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

/** Errors are expected in these suites: keep 500 logs out of the test output, but count them. */
export const logged: unknown[] = []
const quiet = { error: (_m: string, e?: unknown) => void logged.push(e), warn: () => {} }

/** What a fixture application is made of: absolute prefixes and the options the test gave (without its logger). */
export interface FixtureSpec {
  prefixes: string[]
  options: AppOptions
}

export type AppFactory = (() => Promise<Application>) & { fixture?: FixtureSpec }

export function fixtureApp(name: string | string[], options: AppOptions = {}): AppFactory {
  const prefixes = (Array.isArray(name) ? name : [name]).map(fixture)
  return Object.assign(() => createApp(prefixes, { logger: quiet, ...options }), { fixture: { prefixes, options } })
}
