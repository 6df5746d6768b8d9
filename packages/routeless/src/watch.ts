/**
 * Watch mode: rebuild the route table when controller files change, swap it in atomically, keep serving, and report
 * load errors without dying (the previous table keeps answering).
 *
 * Controller modules are reloaded; modules they import from outside the prefixes keep their first copy until restart.
 * @module
 */
import { watch, type FSWatcher } from 'node:fs'
import path from 'node:path'
import { collectSources, type Application } from './application.ts'
import { buildRouteTable } from './route-table.ts'

export interface WatchOptions {
  /** Directory the prefixes are relative to (default: the working directory). */
  cwd?: string
  /** Quiet period after the last change before rebuilding, in ms (default 100). */
  debounceMs?: number
  onReload?: (info: { handlers: number; ms: number }) => void
  onError?: (error: unknown) => void
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
  let waiters: (() => void)[] = []

  const rebuild = async () => {
    const started = performance.now()
    try {
      const table = await buildRouteTable(collectSources(list, cwd, ++generation), { cwd, types: app.options.types, manifest: app.options.manifest })
      app.replaceTable(table)
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

  const watchers: FSWatcher[] = list.map((p) => {
    const abs = path.resolve(cwd, p)
    return watch(abs, { recursive: true }, schedule)
  })
  for (const w of watchers) w.on('error', (error) => options.onError?.(error))

  return {
    close() {
      clearTimeout(timer)
      for (const w of watchers) w.close()
    },
    nextReload: () => new Promise<void>((resolve) => waiters.push(resolve)),
  }
}
