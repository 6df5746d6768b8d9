/**
 * The checker started before the app is known. A start without a manifest (`routeless` in development, nothing built)
 * waits ~0.2 s for TypeScript's checker to open its program, most of it the libraries and `types` of the app's
 * tsconfig, which do not depend on the controllers. So the CLI starts the checker first, before it loads the config,
 * and has it begin opening that program (`NativeSession.warm`); the checker parses in its own process while this
 * thread loads the config, node's type stripping (or tsx) and the controllers, and the analysis then only adds the
 * controllers to the program.
 *
 * One analysis takes it, the first for the same directory (`takeEarlyChecker`); a later one, or one for another
 * directory, opens its own as before. TypeScript ≥ 7 on Node.js only (the classic API opens its program in this
 * thread; Bun and Deno analyse through the bridge, `reader-bridge.ts`).
 * @module
 */
import { findTypeScript, runsHere } from '../../runtime/contract/analysis-key.ts'
import type { KeptChecker } from './type-reader.ts'

let early: { cwd: string; checker: KeptChecker } | undefined

/**
 * Starts the checker for the app in `cwd` and has it begin opening the tsconfig's program; once, and only where it can
 * (TypeScript ≥ 7 on Node.js, not on Windows, where the sync API waits for the checker's named pipe before it returns).
 * Never throws: whatever fails here (no TypeScript, its binary missing) is the analysis's to report, as before.
 */
export async function startEarlyAnalysis(cwd: string): Promise<void> {
  if (early || 'Bun' in globalThis || 'Deno' in globalThis || process.platform === 'win32') return
  const found = findTypeScript(cwd)
  if (!found || Number(found.version.split('.')[0]) < 7 || !runsHere(found.version)) return
  let checker: KeptChecker | undefined
  try {
    const { loadTypeScript } = await import('./analyze.ts')
    const compiler = await loadTypeScript(cwd)
    if (compiler?.backend !== 'native' || !compiler.keep) return
    checker = compiler.keep(cwd)
    if (checker.warm?.()) early = { cwd, checker }
    else checker.close()
  } catch {
    checker?.close() // the analysis, when it comes, starts its own and reports what fails
  }
}

/** The checker started early for `cwd`, for the caller to analyse with and close; undefined when there is none. */
export function takeEarlyChecker(cwd: string): KeptChecker | undefined {
  const taken = early
  if (!taken || taken.cwd !== cwd) return undefined
  early = undefined
  return taken.checker
}

/** Stops the early checker when no analysis took it (the config turned the types off, its prefix has no module …). */
export function dropEarlyAnalysis(): void {
  const dropped = early
  early = undefined
  dropped?.checker.close()
}
