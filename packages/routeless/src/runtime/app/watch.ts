/**
 * Watch mode: rebuild the route table when controller files change, swap it in atomically, keep serving, and report
 * load errors without dying (the previous table keeps answering).
 *
 * Controllers and the local modules they import (anywhere outside `node_modules`: `lib/db.ts`, `controllers/_lib/…`)
 * are reloaded: the whole local graph under each controller loads anew. Those modules are found by a resolve hook
 * (`watch-graph.ts`) that `trackLocalModules()` registers; the CLI registers it before the controllers first load,
 * a library user who calls `watchControllers` later has the imports watched from the first reload on.
 *
 * Handler types are read again for the stale files only (the manifest's per-file cache), by a TypeScript checker the
 * watcher keeps open from its start to its close (`buildTools.keptAnalysis`; on TypeScript ≥ 7 one checker process,
 * told at each reload which files changed).
 * @module
 */
import { watch, type FSWatcher } from 'node:fs'
import path from 'node:path'
import type { Application } from './application.ts'
import { collectSources } from './options.ts'
import { generatedValidators } from '../handlers/load.ts'
import { lacksCode } from '../handlers/handlers.ts'
import { buildTools } from './build-tools.ts'
import type { KeptAnalysis } from '../contract/type-source.ts'
import { buildRouteTable } from '../routing/route-table.ts'
import { forgetLocalCommonJs, onLocalModule, trackLocalModules } from './watch-graph.ts'

export { trackLocalModules } from './watch-graph.ts'

export interface WatchOptions {
  /** Directory the prefixes are relative to (default: the working directory). */
  cwd?: string
  /** Quiet period after the last change before rebuilding, in ms (default 100). */
  debounceMs?: number
  onReload?: (info: { handlers: number; ms: number }) => void
  onError?: (error: unknown) => void
  /**
   * Keep TypeScript's checker open between reloads (default true): on TypeScript ≥ 7 its process starts with the
   * watcher, over the prefixes' TypeScript files, and each reload tells it the files that changed instead of opening
   * the program again; `close()` stops it. `false` opens a checker per reload, as `createApp` does.
   */
  keepChecker?: boolean
  /**
   * Internal: the kept checker to use (`buildTools.keptAnalysis()`), opened by the caller: the CLI's `--watch` reads the
   * types at start-up with it, so the program is opened once. The watcher prepares nothing then, and closes it.
   */
  analysis?: KeptAnalysis
}

export interface Watcher {
  close(): void
  /** Resolves after the next rebuild attempt (for tests). */
  nextReload(): Promise<void>
}

export function watchControllers(app: Application, prefixes: string[], options: WatchOptions = {}): Watcher {
  const cwd = options.cwd ?? process.cwd()
  const list = prefixes.flatMap((p) => p.split(':')).filter(Boolean)
  let generation = 0
  let timer: NodeJS.Timeout | undefined
  let running = Promise.resolve()
  const waiters: (() => void)[] = []
  const typed = (app.options.types ?? 'auto') === 'auto'
  const kept = options.analysis ?? (typed && options.keepChecker !== false ? buildTools.keptAnalysis() : undefined)

  const rebuild = async () => {
    const started = performance.now()
    try {
      forgetLocalCommonJs()
      const table = await buildRouteTable(collectSources(list, cwd, ++generation), {
        cwd,
        types: app.options.types,
        manifest: app.options.manifest,
        auth: app.options.auth,
        validators: generatedValidators({
          module: app.options.compiled,
          manifest: app.options.manifest,
          cwd,
          ...buildTools,
        }),
        analysis: kept ? async () => kept : buildTools.analysis,
      })
      app.replaceTable(
        table,
        lacksCode(table, !!app.options.checkReturns) ? { evaluate: await buildTools.evaluator() } : {},
      )
      for (const warning of table.warnings) app.warn(warning)
      options.onReload?.({ handlers: table.rows.length, ms: Math.round(performance.now() - started) })
    } catch (error) {
      options.onError?.(error)
    }
    for (const w of waiters.splice(0)) w()
  }

  const schedule = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      running = running.then(rebuild)
    }, options.debounceMs ?? 100)
  }

  const roots = list.map((p) => path.resolve(cwd, p))
  const watchers: FSWatcher[] = roots.map((abs) => watch(abs, { recursive: true }, schedule))
  for (const w of watchers) w.on('error', (error) => options.onError?.(error))

  // The local modules controllers import, outside the prefixes: one watcher per directory, for the files seen there.
  trackLocalModules()
  const byDir = new Map<string, Set<string>>()
  const inPrefix = (file: string) => roots.some((r) => file === r || file.startsWith(r + path.sep))
  const unsubscribe = onLocalModule((file) => {
    if (inPrefix(file)) return
    const dir = path.dirname(file)
    let names = byDir.get(dir)
    if (!names) {
      byDir.set(dir, (names = new Set()))
      const seen = names
      try {
        const w = watch(dir, (_event, name) => {
          if (name && seen.has(String(name))) schedule()
        })
        w.on('error', (error) => options.onError?.(error))
        w.unref()
        watchers.push(w)
      } catch (error) {
        options.onError?.(error)
      }
    }
    names.add(path.basename(file))
  })

  // The checker opens its program once, now, rather than at the first edit (errors are the first reload's to report).
  const warm =
    kept &&
    !options.analysis &&
    setTimeout(() => {
      running = running.then(() => openChecker(kept, list, cwd))
    }, 0)
  if (warm) warm.unref()

  return {
    close() {
      clearTimeout(timer)
      if (warm) clearTimeout(warm)
      unsubscribe()
      for (const w of watchers) w.close()
      kept?.close()
    },
    nextReload: () => new Promise<void>((resolve) => waiters.push(resolve)),
  }
}

/**
 * Opens the kept checker's program over the prefixes' TypeScript files, so that the first edit finds it open. A
 * mistake it meets is left to the next analysis to report.
 */
export async function openChecker(kept: KeptAnalysis, prefixes: string[], cwd: string): Promise<void> {
  try {
    const files = collectSources(prefixes, cwd)
      .map((s) => s.file)
      .filter((f) => /\.[mc]?tsx?$/.test(f))
    if (files.length > 0) await kept.prepare(files, cwd)
  } catch {}
}
