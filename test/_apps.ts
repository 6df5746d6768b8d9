/** Builds applications from the fixture controller trees in test/fixtures/<scenario>. */
import { fileURLToPath } from 'node:url'
import { createApp, type AppOptions, type Application } from 'routeless'

export const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))

/** Errors are expected in these suites: keep 500 logs out of the test output, but count them. */
export const logged: unknown[] = []
const quiet = { error: (_m: string, e?: unknown) => void logged.push(e), warn: () => {} }

export function fixtureApp(name: string | string[], options: AppOptions = {}): () => Promise<Application> {
  const prefixes = (Array.isArray(name) ? name : [name]).map(fixture)
  return () => createApp(prefixes, { logger: quiet, ...options })
}
