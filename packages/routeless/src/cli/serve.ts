/**
 * Internal: `routeless [serve]`, the command that serves: picks the server, starts the workers or the app, watches,
 * and drains on SIGINT/SIGTERM. The settings arrive resolved (flags, then environment, then the config file).
 * @module
 */
import type { Application } from '../runtime/app/application.ts'
import type { Built } from '../compiler/bundle/node-load.ts'
import { createAppFromSources } from '../runtime/app/create-app.ts'
import { collectSources, type AppOptions } from '../runtime/app/options.ts'
import { buildTools } from '../runtime/app/build-tools.ts'
import type { KeptAnalysis } from '../runtime/contract/type-source.ts'
import { appOptionsOf, makeContext, type RoutelessConfig, type ServerName } from './config.ts'
import { createLogger, type LogFormat, type LogLevel } from '../runtime/base/logging.ts'
import type { RunningServer } from '../runtime/server/shared/serving.ts'
import { nodeStripsTypes, registerTypeScript } from '../runtime/routing/ts-loader.ts'
import {
  isWorker,
  leave,
  parseWorkers,
  reportListening,
  runPrimary,
  WORKER_HOST_ENV,
  workerStopSignal,
} from './workers.ts'
import { reportError, type CliIO, type StopSignal } from './io.ts'

export interface ServeSettings {
  prefix: string[]
  host: string
  bodyLimit?: number
  logLevel: LogLevel
  logFormat: LogFormat
  watch: boolean
  server: ServerName
  workers: string
  /** On SIGTERM, how long to go on serving while reporting `draining`, in ms (`--drain-delay`; default 0). */
  drainDelay: number
  config: RoutelessConfig
  /** What `routeless build` compiled for node, fresh: the controllers load from it (no tsx). */
  built?: Built
  /** Stops the checker the CLI started early (`compiler/analysis/early-analysis.ts`) if no analysis took it. */
  dropEarly?: () => void
}

/** Parses `--host` (`host:port`, `:port`, `port`, `[::1]:port`). */
export function parseHost(value: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*))?(?::(\d+))?$/.exec(value.trim())
  const bare = /^\d+$/.test(value.trim())
  const host = bare ? '127.0.0.1' : (m?.[1] ?? m?.[2]) || '127.0.0.1'
  const port = Number(bare ? value : (m?.[3] ?? 8000))
  if (!m || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid --host "${value}": expected host:port`)
  return { host, port }
}

/** Resolves with the first SIGINT or SIGTERM. */
export function waitForSignal(): Promise<StopSignal> {
  return new Promise((resolve) => {
    const stop = (signal: StopSignal) => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve(signal)
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
}

/**
 * The graceful stop: on SIGTERM the server reports `draining` (readiness checks answer 503) and goes on serving for
 * the drain delay, so a load balancer stops sending first; Ctrl-C (SIGINT) skips the delay, and so does a second
 * signal during it. Then the server drains.
 */
async function stopServing(running: RunningServer, signal: StopSignal | undefined, drainDelay: number, io: CliIO) {
  const delay = signal === 'SIGINT' ? 0 : drainDelay
  if (delay > 0) io.stdout(`routeless: ${signal ?? 'stop'}: draining, not ready for ${delay} ms, then closing`)
  const now = () => void running.close({ delay: 0 })
  process.once('SIGINT', now)
  process.once('SIGTERM', now)
  try {
    await running.close({ delay })
  } finally {
    process.off('SIGINT', now)
    process.off('SIGTERM', now)
  }
}

export async function serveCommand(opts: ServeSettings, io: CliIO): Promise<number> {
  const { prefix, config } = opts
  const worker = await isWorker()
  let where: { host: string; port: number }
  let workers: number
  try {
    where = parseHost(worker ? process.env[WORKER_HOST_ENV]! : opts.host)
    workers = worker ? 1 : parseWorkers(opts.workers)
  } catch (error) {
    io.stderr((error as Error).message)
    return 2
  }
  const server = await chooseServer(opts.server, io)
  if (!server) return 1
  const serving = `${server.name}${workers > 1 ? `, ${workers} workers` : ''}`
  const describe = (url: string, handlers: number) =>
    `routeless: ${handlers} handlers from ${prefix.map(shortPath).join(', ')} listening on ${url} (${serving})`
  if (workers > 1) {
    // Read the handlers' types once, here: the workers then start warm from the manifest instead of each type-checking.
    try {
      const { loadSignatures } = await import('../runtime/contract/type-source.ts')
      await loadSignatures(collectSources(prefix, process.cwd()), { cwd: process.cwd(), analysis: buildTools.analysis })
    } catch {
      // each worker reports it as it starts
    } finally {
      opts.dropEarly?.()
    }
    return runPrimary({
      count: workers,
      ...where,
      env: { ROUTELESS_SERVER: server.name },
      stdout: io.stdout,
      stderr: io.stderr,
      stopSignal: io.stopSignal ?? waitForSignal(),
      drainDelay: opts.drainDelay,
      describe,
    })
  }
  // Before anything loads: the watcher must learn every local module the controllers import.
  const watching = opts.watch ? await import('../runtime/app/watch.ts') : undefined
  watching?.trackLocalModules()
  // Under --watch one kept checker reads the types, at start-up (when the manifest lacks some) and at every reload:
  // the program is opened once, and before the server listens.
  const kept = watching && buildTools.keptAnalysis()
  const logger = config.logger ?? createLogger({ level: opts.logLevel, format: opts.logFormat })
  let context: unknown
  try {
    context = await makeContext(config)
  } catch (error) {
    io.stderr(`routeless: the config's context failed: ${(error as Error).stack ?? error}`)
    return 1
  }
  const app = await loadApp(
    prefix,
    io,
    {
      ...appOptionsOf(config),
      context,
      bodyLimit: opts.bodyLimit,
      logger,
      accessLog: config.accessLog ?? (opts.logLevel === 'info' || opts.logLevel === 'debug'),
      explainNotFound: config.explainNotFound ?? (opts.watch || process.env.NODE_ENV === 'development'),
      checkReturns: config.checkReturns ?? (opts.watch || process.env.NODE_ENV === 'development'),
    },
    opts.built,
    kept,
  )
  let running: RunningServer | undefined
  try {
    if (!app) {
      kept?.close()
      return 1
    }
    if (kept && (app.options.types ?? 'auto') === 'auto') await watching!.openChecker(kept, prefix, process.cwd())
    // The app is built and the watcher's checker open: a checker started early that neither took (types off) stops.
    opts.dropEarly?.()
    await config.ready?.(app)
    running = await server.serve(app, { ...where, reusePort: worker })
  } catch (error) {
    io.stderr(`routeless: ${(error as Error).message}`)
    kept?.close()
    await config.close?.()
    return 1
  }
  // Listening for the stop before saying the server listens: a signal sent on that line is never missed.
  const stop = io.stopSignal ?? (worker ? workerStopSignal() : waitForSignal())
  if (worker) reportListening(running.url, app.table.rows.length)
  else io.stdout(describe(running.url, app.table.rows.length))
  const watcher = watching
    ? watching.watchControllers(app, prefix, {
        analysis: kept,
        onReload: ({ handlers, ms }) => io.stdout(`routeless: reloaded ${handlers} handlers in ${ms} ms`),
        onError: (error) =>
          io.stderr(
            `routeless: reload failed, still serving the previous controllers: ${(error as Error).message ?? error}`,
          ),
      })
    : undefined
  const signal = await stop
  watcher?.close()
  await stopServing(running, signal, opts.drainDelay, io)
  await config.close?.()
  if (worker) leave()
  return 0
}

/** A prefix as given, relative to the working directory when it lies below it. */
function shortPath(p: string): string {
  const cwd = process.cwd()
  return p.startsWith(`${cwd}/`) ? p.slice(cwd.length + 1) : p
}

type Serve = (app: Application, options: { host: string; port: number; reusePort?: boolean }) => Promise<RunningServer>

/**
 * `--server`: node:http unless uWebSockets.js or Bun's server is asked for (Bun's is the default on Bun). node:http is
 * the default on node because it passes every probe of the protocol suite (test/protocol); uWebSockets.js 20.30 does
 * not answer HTTP/1.0, drops requests pipelined behind an asynchronous answer, and leaves some malformed requests
 * unanswered (docs/runtimes.md, "node:http and uWebSockets.js"). On Bun, `Bun.serve` serves about twice the requests
 * per CPU second of node:http through Bun's node compatibility (docs/BENCHMARKS.md).
 */
async function chooseServer(wanted: ServerName, io: CliIO): Promise<{ name: ServerName; serve: Serve } | undefined> {
  if (wanted === 'bun') {
    if (!('Bun' in globalThis)) {
      io.stderr('routeless: --server=bun needs Bun: run the CLI with bun (bunx --bun routeless), or use --server=node')
      return undefined
    }
    const bun = await import('../runtime/server/bun/index.ts')
    return { name: 'bun', serve: bun.serve }
  }
  if (wanted === 'uws') {
    try {
      const uws = await import('../runtime/server/uws/index.ts')
      uws.loadUws()
      return { name: 'uws', serve: uws.serve }
    } catch (error) {
      io.stderr(`routeless: --server=uws: ${(error as Error).message}`)
      return undefined
    }
  }
  const node = await import('../runtime/server/node/index.ts')
  return { name: 'node', serve: node.serve }
}

/** Loads the controllers into an app; prints the mistake and resolves to undefined when they cannot load. */
export async function loadApp(
  prefix: string[],
  io: CliIO,
  options: AppOptions = {},
  built?: Built,
  kept?: KeptAnalysis,
): Promise<Application | undefined> {
  try {
    // Compiled by `routeless build` and fresh: JavaScript, no loader. Else, where node strips types, controllers load
    // natively (tsx only for the files that need it: runtime/routing/ts-loader.ts); elsewhere tsx is registered first, so a
    // .js controller may import a .ts module too.
    const sources = built?.sources(prefix)
    if (!sources && !nodeStripsTypes()) await registerTypeScript()
    const logger = options.logger ?? {
      error: (m: string) => io.stderr(`routeless: ${m}`),
      warn: (m: string) => io.stderr(`routeless: warning: ${m}`),
    }
    return await (sources
      ? createAppFromSources(sources, { ...options, logger })
      : createAppFromSources(collectSources(prefix, process.cwd()), { ...options, logger }, kept && (async () => kept)))
  } catch (error) {
    reportError(io, error, 'stack')
    return undefined
  }
}
