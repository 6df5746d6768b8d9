/**
 * The `routeless` command line: `routeless --prefix=controllers --host=127.0.0.1:8000` serves, `routeless routes`
 * prints the route table. `runCli(argv)` resolves to the exit code, so tests call it in-process.
 * @module
 */
import { createRequire } from 'node:module'
import yargs from 'yargs'
import path from 'node:path'
import { collectSources, createApp, type AppOptions, type Application } from './application.ts'
import { createLogger, LOG_LEVELS, type LogLevel } from './logging.ts'
import { RoutelessError } from './errors.ts'
import { MANIFEST_PATH, writeManifest } from './manifest.ts'
import type { RunningServer } from './node.ts'
import { isWorker, leave, parseWorkers, reportListening, runPrimary, WORKER_HOST_ENV, workerStopSignal } from './_workers.ts'

export interface CliIO {
  stdout: (line: string) => void
  stderr: (line: string) => void
  /** Resolves when the server should stop (default: SIGINT or SIGTERM). */
  stopSignal?: Promise<void>
}

const defaultIO: CliIO = {
  stdout: (line) => process.stdout.write(line + '\n'),
  stderr: (line) => process.stderr.write(line + '\n'),
}

function version(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version
}

/** Parses `--host` (`host:port`, `:port`, `port`, `[::1]:port`). */
export function parseHost(value: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*))?(?::(\d+))?$/.exec(value.trim())
  const bare = /^\d+$/.test(value.trim())
  const host = bare ? '127.0.0.1' : (m?.[1] ?? m?.[2]) || '127.0.0.1'
  const port = Number(bare ? value : m?.[3] ?? 8000)
  if (!m || !Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid --host "${value}": expected host:port`)
  return { host, port }
}

function prefixes(value: unknown): string[] {
  const list = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string')
  return list.flatMap((p) => p.split(':')).filter(Boolean)
}

async function loadTypeScript(): Promise<void> {
  // Controllers may be .ts: register tsx's loader once, so users need no build step.
  // Both hooks: a .ts file outside a "type": "module" package is loaded as CommonJS.
  const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')])
  esm.register()
  cjs.register()
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve()
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
}

/** Runs the CLI with `argv` (without `node` and the script). Resolves to the process exit code. */
export async function runCli(argv: string[], io: CliIO = defaultIO): Promise<number> {
  let code = 0
  const env = process.env
  const parser = yargs(argv)
    .scriptName('routeless')
    .usage('$0 [--prefix=<dir>] [--host=<host:port>]\n\nServe the controllers under --prefix; the request path picks module, class and method.')
    .option('prefix', {
      type: 'string', array: true, describe: 'Directory (or module file) of controllers; repeat or separate with ":" (env ROUTELESS_PREFIX)',
      default: env.ROUTELESS_PREFIX ? [env.ROUTELESS_PREFIX] : ['controllers'],
    })
    .option('body-limit', {
      type: 'number', describe: 'Largest request body in bytes (env ROUTELESS_BODY_LIMIT)',
      default: env.ROUTELESS_BODY_LIMIT ? Number(env.ROUTELESS_BODY_LIMIT) : undefined,
      coerce: (v: number | undefined) => {
        if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new Error('--body-limit (ROUTELESS_BODY_LIMIT) must be a whole number of bytes')
        return v
      },
    })
    .command(['$0', 'serve'], 'Serve the controllers (default command)', (y) =>
      y.option('host', { type: 'string', describe: 'host:port to listen on (env ROUTELESS_HOST)', default: env.ROUTELESS_HOST ?? '127.0.0.1:8000' })
        .option('log-level', { choices: LOG_LEVELS, describe: 'Access and error log level, JSON lines on stderr (env ROUTELESS_LOG_LEVEL)', default: (env.ROUTELESS_LOG_LEVEL as LogLevel | undefined) ?? 'info' })
        .option('watch', { type: 'boolean', describe: 'Rebuild the route table when controller files change', default: false })
        .option('server', { choices: ['node', 'uws'] as const, describe: 'node (node:http, the default) or uws (uWebSockets.js: faster, with the limits the README lists) (env ROUTELESS_SERVER)', default: (env.ROUTELESS_SERVER as 'uws' | 'node' | undefined) ?? 'node' })
        .option('workers', { type: 'string', describe: 'Processes serving the port: a number, or auto for one per core (env ROUTELESS_WORKERS)', default: env.ROUTELESS_WORKERS ?? '1' }),
    async (args) => {
      code = await serveCommand(prefixes(args.prefix), args.host, { bodyLimit: args['body-limit'], logLevel: args['log-level'], watch: args.watch, server: args.server, workers: args.workers }, io)
    })
    .command('routes', 'Print the route table: method, path, file, class.method, parameters', () => {}, async (args) => {
      code = await routesCommand(prefixes(args.prefix), io)
    })
    .command('build', 'Write the signature manifest (handler types read by the TypeScript checker) so that serving needs neither typescript nor type-checking', (y) =>
      y.option('out', { type: 'string', describe: 'Where to write it', default: MANIFEST_PATH }),
    async (args) => {
      code = await buildCommand(prefixes(args.prefix), args.out, io)
    })
    .command('openapi', 'Print the OpenAPI 3.1 document generated from the controllers', (y) =>
      y.option('title', { type: 'string', default: 'routeless application' }).option('api-version', { type: 'string', default: '0.0.0' }),
    async (args) => {
      code = await openapiCommand(prefixes(args.prefix), { title: args.title, version: args['api-version'] }, io)
    })
    .strict()
    .version(version())
    .help()
    .exitProcess(false)
    .fail((message, error) => {
      // Thrown, not returned: a usage mistake (`--port=…`, `routeless rotues`) must stop here, before any command runs.
      throw new UsageError(error ? error.message : message)
    })
  try {
    await parser.parseAsync()
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr(`${error.message}\nRun \`routeless --help\` for the commands and options.`)
    return 2
  }
  return code
}

class UsageError extends Error {}

interface ServeCommandOptions {
  bodyLimit?: number
  logLevel: LogLevel
  watch?: boolean
  /** `node` (the default) or `uws`. */
  server?: 'uws' | 'node'
  workers?: string
}

async function serveCommand(prefix: string[], hostArg: string, opts: ServeCommandOptions, io: CliIO): Promise<number> {
  const worker = isWorker()
  let where: { host: string; port: number }
  let workers: number
  try {
    where = parseHost(worker ? process.env[WORKER_HOST_ENV]! : hostArg)
    workers = worker ? 1 : parseWorkers(opts.workers)
  } catch (error) {
    io.stderr((error as Error).message)
    return 2
  }
  const server = await chooseServer(opts.server, io)
  if (!server) return 1
  const describe = (url: string, handlers: number) =>
    `routeless: ${handlers} handlers from ${prefix.join(', ')} listening on ${url} (${server.name}${workers > 1 ? `, ${workers} workers` : ''})`
  if (workers > 1) {
    // Read the handlers' types once, here: the workers then start warm from the manifest instead of each type-checking.
    try {
      const { loadSignatures } = await import('./signatures.ts')
      await loadSignatures(collectSources(prefix, process.cwd()), { cwd: process.cwd() })
    } catch {
      // each worker reports it as it starts
    }
    return runPrimary({
      count: workers, ...where, env: { ROUTELESS_SERVER: server.name }, stdout: io.stdout, stderr: io.stderr,
      stopSignal: io.stopSignal ?? waitForSignal(), describe,
    })
  }
  const logger = createLogger({ level: opts.logLevel })
  const app = await loadApp(prefix, io, { bodyLimit: opts.bodyLimit, logger, accessLog: opts.logLevel === 'info' || opts.logLevel === 'debug' })
  if (!app) return 1
  let running: RunningServer
  try {
    running = await server.serve(app, { ...where, reusePort: worker })
  } catch (error) {
    io.stderr(`routeless: ${(error as Error).message}`)
    return 1
  }
  if (worker) reportListening(running.url, app.table.rows.length)
  else io.stdout(describe(running.url, app.table.rows.length))
  const watcher = opts.watch
    ? (await import('./watch.ts')).watchControllers(app, prefix, {
        onReload: ({ handlers, ms }) => io.stdout(`routeless: reloaded ${handlers} handlers in ${ms} ms`),
        onError: (error) => io.stderr(`routeless: reload failed, still serving the previous controllers: ${(error as Error).message ?? error}`),
      })
    : undefined
  await (io.stopSignal ?? (worker ? workerStopSignal() : waitForSignal()))
  watcher?.close()
  await running.close()
  if (worker) leave()
  return 0
}

type Serve = (app: Application, options: { host: string; port: number; reusePort?: boolean }) => Promise<RunningServer>

/**
 * `--server`: node:http unless uWebSockets.js is asked for. node:http is the default because it passes every probe of
 * the protocol suite (test/protocol); uWebSockets.js 20.30 does not answer HTTP/1.0, drops requests pipelined behind
 * an asynchronous answer, and leaves some malformed requests unanswered (README, "Servers").
 */
async function chooseServer(wanted: 'uws' | 'node' | undefined, io: CliIO): Promise<{ name: 'uws' | 'node'; serve: Serve } | undefined> {
  if (wanted === 'uws') {
    try {
      const uws = await import('./uws.ts')
      uws.loadUws()
      return { name: 'uws', serve: uws.serve }
    } catch (error) {
      io.stderr(`routeless: --server=uws: ${(error as Error).message}`)
      return undefined
    }
  }
  const node = await import('./node.ts')
  return { name: 'node', serve: node.serve }
}

/** `routeless build`: analyses every controller afresh and writes the manifest. Imports no controller. */
async function buildCommand(prefix: string[], out: string, io: CliIO): Promise<number> {
  const cwd = process.cwd()
  const started = performance.now()
  try {
    const { analyze, loadTypeScript } = await import('./analyze.ts')
    const ts = await loadTypeScript(cwd)
    if (!ts) {
      io.stderr('routeless: build reads the handlers\' types with the TypeScript compiler: install typescript (npm i -D typescript)')
      return 1
    }
    const sources = collectSources(prefix, cwd).filter((s) => !s.file.startsWith('<'))
    const manifest = analyze(ts, sources.map((s) => ({ file: s.file, module: s.parts.join('/') })), cwd)
    const file = path.resolve(cwd, out)
    if (!writeManifest(file, manifest)) {
      io.stderr(`routeless: cannot write ${out}`)
      return 1
    }
    for (const [key, types] of Object.entries(manifest.handlers)) for (const w of types.warnings ?? []) io.stderr(`routeless: warning: ${key.replace('#', ': ')}: ${w}`)
    const handlers = Object.keys(manifest.handlers).length
    io.stdout(`routeless: wrote ${path.relative(cwd, file)}: ${handlers} handlers from ${Object.keys(manifest.files).length} files, TypeScript ${ts.version} (${Math.round(performance.now() - started)} ms)`)
    return 0
  } catch (error) {
    if (error instanceof RoutelessError) io.stderr(`routeless: ${error.message} [${error.code}]`)
    else io.stderr(`routeless: ${(error as Error).message}`)
    return 1
  }
}

async function routesCommand(prefix: string[], io: CliIO): Promise<number> {
  const app = await loadApp(prefix, io)
  if (!app) return 1
  const rows = app.table.list()
  const width = (k: 'method' | 'path' | 'file' | 'handler') => Math.max(k.length, ...rows.map((r) => r[k].length))
  const [wm, wp, wf, wh] = [width('method'), width('path'), width('file'), width('handler')]
  io.stdout(`${'METHOD'.padEnd(wm)}  ${'PATH'.padEnd(wp)}  ${'FILE'.padEnd(wf)}  ${'HANDLER'.padEnd(wh)}  PARAMETERS`)
  for (const r of rows) io.stdout(`${r.method.padEnd(wm)}  ${r.path.padEnd(wp)}  ${r.file.padEnd(wf)}  ${r.handler.padEnd(wh)}  ${r.params}`)
  return 0
}

async function openapiCommand(prefix: string[], info: { title: string; version: string }, io: CliIO): Promise<number> {
  const app = await loadApp(prefix, io)
  if (!app) return 1
  const { generateOpenAPI } = await import('./openapi.ts')
  io.stdout(JSON.stringify(generateOpenAPI(app.table, { info }), null, 2))
  return 0
}

async function loadApp(prefix: string[], io: CliIO, options: AppOptions = {}) {
  try {
    await loadTypeScript()
    const logger = options.logger ?? { error: (m: string) => io.stderr(`routeless: ${m}`), warn: (m: string) => io.stderr(`routeless: warning: ${m}`) }
    return await createApp(prefix, { ...options, logger })
  } catch (error) {
    if (error instanceof RoutelessError) io.stderr(`routeless: ${error.message} [${error.code}]`)
    else io.stderr(`routeless: ${(error as Error).stack ?? error}`)
    return undefined
  }
}
