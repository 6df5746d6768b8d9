/**
 * The `routeless` command line: `routeless --prefix=controllers --host=127.0.0.1:8000` serves, `routeless routes`
 * prints the route table. `runCli(argv)` resolves to the exit code, so tests call it in-process.
 * @module
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { configFileOf, defaultServer, loadConfig, SERVERS, type RoutelessConfig } from './config.ts'
import { LOG_FORMATS, LOG_LEVELS } from '../runtime/base/logging.ts'
import { MANIFEST_PATH } from '../runtime/contract/manifest.ts'
import { findBuilt, type Built } from '../compiler/bundle/node-load.ts'
import { serveCommand } from './serve.ts'
import { defaultIO, type CliIO } from './io.ts'
import { bodyLimitOf, choiceOf, drainDelayOf, flagOf, metricsOf, UsageError, usageErrors } from './arguments.ts'
import { buildCommand, nodeBuildCommand, WORKER_OUT, workerCommand } from './build.ts'
import { asyncapiCommand, checkCommand, clientCommand, explainCommand, openapiCommand, routesCommand } from './tools.ts'
import { commonFlags, type ServeArgs } from './common-flags.ts'

export type { CliIO } from './io.ts'

function version(): string {
  // Built, this code sits in dist/ (one level below the package); in the sources, in src/cli/ (two levels).
  const require = createRequire(import.meta.url)
  for (const file of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(file) as { name?: string; version: string }
      if (pkg.name === 'routeless') return pkg.version
    } catch {}
  }
  return 'unknown'
}

export { parseHost } from './serve.ts'

function prefixes(value: unknown): string[] {
  const list = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string')
  return list.flatMap((p) => p.split(':')).filter(Boolean)
}

/** Runs the CLI with `argv` (without `node` and the script). Resolves to the exit code. */
export async function runCli(argv: string[], io: CliIO = defaultIO): Promise<number> {
  let code = 0
  const env = process.env
  // Flags, then ROUTELESS_* variables, then routeless.config.ts, then the defaults: no yargs defaults, so a flag
  // left out is told apart from one given.
  // `serving`: the serve command. Without --watch it takes the config and the controllers from what `routeless
  // build` compiled for node while it is fresh (compiler/bundle/node-load.ts), and tsx is not loaded.
  const settings = async (args: { prefix?: unknown; config?: string; watch?: boolean }, serving = false) => {
    const cwd = process.cwd()
    const served = serving && !args.watch
    const flagged = prefixes(args.prefix)
    const given = flagged.length ? flagged : env.ROUTELESS_PREFIX ? prefixes(env.ROUTELESS_PREFIX) : undefined
    let built = served
      ? findBuilt(
          cwd,
          configFileOf(args.config, cwd),
          given?.map((p) => path.resolve(cwd, p)),
        )
      : undefined
    // No build and no manifest, or --watch (which keeps a checker open from its start): TypeScript's checker will
    // read the controllers' types. It starts now and opens the tsconfig's program in its own process while the config
    // and the controllers load (early-analysis.ts).
    const checks = serving && (args.watch === true || (!built && !existsSync(path.join(cwd, MANIFEST_PATH))))
    const early = checks ? await import('../compiler/analysis/early-analysis.ts') : undefined
    await early?.startEarlyAnalysis(cwd)
    let loaded: Awaited<ReturnType<typeof loadConfig>>
    try {
      loaded = await loadConfig(args.config, cwd, built?.config)
    } catch (error) {
      early?.dropEarlyAnalysis()
      throw error
    }
    const { config, file } = loaded
    // A manifest of the config's own, there: no analysis will need the checker (--watch keeps one open anyway).
    if (!args.watch && typeof config.manifest === 'string' && existsSync(path.resolve(cwd, config.manifest)))
      early?.dropEarlyAnalysis()
    const prefix = given ?? (config.prefix?.length ? (config.prefix as string[]) : ['controllers'])
    // A config whose prefix is not the one it had when built (it reads the environment): the controllers' sources.
    if (built && prefix.map((p) => path.resolve(cwd, p)).join('\0') !== built.prefix.join('\0')) built = undefined
    return { config, prefix, file, built, dropEarly: early?.dropEarlyAnalysis }
  }
  /** The default command: serve the controllers. */
  const serve = async (args: ServeArgs) => {
    const { config, prefix, built, dropEarly } = await settings(args, true)
    try {
      await serveWith(args, config, prefix, built, dropEarly)
    } finally {
      dropEarly?.() // a usage mistake or a failed start returns before the server drops it
    }
  }
  const serveWith = async (
    args: ServeArgs,
    config: RoutelessConfig,
    prefix: string[],
    built: Built | undefined,
    dropEarly: (() => void) | undefined,
  ) => {
    const bodyLimit =
      args['body-limit'] ?? (env.ROUTELESS_BODY_LIMIT ? bodyLimitOf(env.ROUTELESS_BODY_LIMIT) : config.bodyLimit)
    const logLevel =
      args['log-level'] ??
      choiceOf('ROUTELESS_LOG_LEVEL', env.ROUTELESS_LOG_LEVEL, LOG_LEVELS) ??
      config.logLevel ??
      'info'
    const logFormat =
      args['log-format'] ??
      choiceOf('ROUTELESS_LOG_FORMAT', env.ROUTELESS_LOG_FORMAT, LOG_FORMATS) ??
      config.logFormat ??
      'auto'
    const server =
      args.server ?? choiceOf('ROUTELESS_SERVER', env.ROUTELESS_SERVER, SERVERS) ?? config.server ?? defaultServer()
    const workers =
      args.workers ?? env.ROUTELESS_WORKERS ?? (config.workers === undefined ? '1' : String(config.workers))
    const host = args.host ?? env.ROUTELESS_HOST ?? config.host ?? '127.0.0.1:8000'
    const metricsGiven = args.metrics ?? env.ROUTELESS_METRICS
    const metrics = metricsGiven === undefined ? config.metrics : metricsOf(metricsGiven, config.metrics)
    const drainDelay =
      args['drain-delay'] ??
      (env.ROUTELESS_DRAIN_DELAY ? drainDelayOf(env.ROUTELESS_DRAIN_DELAY) : config.drainDelay) ??
      0
    const docs = args.docs ?? (env.ROUTELESS_DOCS ? flagOf('ROUTELESS_DOCS', env.ROUTELESS_DOCS) : undefined)
    code = await serveCommand(
      {
        prefix,
        host,
        bodyLimit,
        logLevel,
        logFormat,
        watch: args.watch ?? config.watch ?? false,
        built: config.watch ? undefined : built,
        dropEarly,
        server,
        workers,
        drainDelay,
        config: {
          ...(docs === undefined || (docs && config.docs) ? config : { ...config, docs }),
          metrics,
        },
      },
      io,
    )
  }
  // `routeless` alone (`npm start`, `npx routeless`: settings from ROUTELESS_* and the config file), or with only the
  // common flags (`--host`, `--prefix`, `--server`, `--workers`, `--watch`), serves without loading yargs, whose parser
  // and help layout cost more start-up than the rest of the CLI together. Anything else is yargs's to read.
  const common = commonFlags(argv)
  if (common) return usageErrors(io, async () => (await serve(common), code))
  const { default: yargs } = await import('yargs')
  const parser = yargs(argv)
    .scriptName('routeless')
    .usage(
      '$0 [serve] [--prefix=<dir>] [--host=<host:port>]\n\n' +
        'Serve the controllers under --prefix; the request path picks module, class and method.\n' +
        'Settings come from flags, then ROUTELESS_* variables, then routeless.config.ts (or .mts/.js/.mjs) in the working directory.',
    )
    .example('$0 --prefix=controllers --host=127.0.0.1:8000', 'serve ./controllers on port 8000')
    .example('$0 --watch --log-level=debug', 'serve, reloading on every edit')
    .example('$0 --workers=auto --server=uws', 'one process per core on uWebSockets.js')
    .example('$0 routes', 'print the route table')
    .example('$0 explain GET /users/posts/7', 'how a request resolves, or why it is a 404')
    .example('$0 explain GET /users/posts/7 --code', "… and the handler's generated function")
    .example('$0 openapi --title="My API" > openapi.json', 'write the OpenAPI document')
    .example('$0 asyncapi > asyncapi.json', 'write the AsyncAPI document of the WebSockets')
    .option('prefix', {
      type: 'string',
      array: true,
      describe:
        'Directory (or module file) of controllers; repeat or separate with ":" (env ROUTELESS_PREFIX; default controllers)',
    })
    .option('config', {
      type: 'string',
      describe:
        'Config file (default: routeless.config.ts, .mts, .js or .mjs in the working directory, when there is one)',
    })
    .option('body-limit', {
      type: 'number',
      describe: 'Largest request body in bytes (env ROUTELESS_BODY_LIMIT; default 1 MiB)',
      coerce: (v: number | undefined) => {
        if (v !== undefined && (!Number.isSafeInteger(v) || v < 0))
          throw new Error('--body-limit (ROUTELESS_BODY_LIMIT) must be a whole number of bytes')
        return v
      },
    })
    .command(
      ['$0', 'serve'],
      'Serve the controllers (default command)',
      (y) =>
        y
          .option('host', {
            type: 'string',
            describe: 'host:port to listen on (env ROUTELESS_HOST; default 127.0.0.1:8000)',
          })
          .option('log-level', {
            choices: LOG_LEVELS,
            describe: 'Access and error log level (env ROUTELESS_LOG_LEVEL; default info)',
          })
          .option('log-format', {
            choices: LOG_FORMATS,
            describe:
              'json lines, pretty human lines, or auto: pretty when stderr is a terminal (env ROUTELESS_LOG_FORMAT; default auto)',
          })
          .option('watch', { type: 'boolean', describe: 'Rebuild the route table when controller files change' })
          .option('server', {
            choices: SERVERS,
            describe:
              'node (node:http, the default on node), uws (uWebSockets.js: faster, with the limits docs/runtimes.md lists) ' +
              'or bun (Bun.serve, the default on Bun) (env ROUTELESS_SERVER)',
          })
          .option('metrics', {
            type: 'string',
            describe:
              'Serve Prometheus metrics (needs prom-client) at /metrics, or at the path given: --metrics=/_ops/metrics ' +
              '(env ROUTELESS_METRICS; off by default)',
          })
          .option('workers', {
            type: 'string',
            describe:
              'Processes serving the port: a number, or auto for one per core (env ROUTELESS_WORKERS; default 1)',
          })
          .option('drain-delay', {
            type: 'number',
            describe:
              'On SIGTERM, serve on this many ms with readiness failing (this.env.draining) before closing ' +
              '(env ROUTELESS_DRAIN_DELAY; default 0)',
            coerce: (v: number | undefined) => {
              if (v !== undefined && (!Number.isSafeInteger(v) || v < 0))
                throw new Error('--drain-delay (ROUTELESS_DRAIN_DELAY) must be a whole number of milliseconds')
              return v
            },
          })
          .option('docs', {
            type: 'boolean',
            describe:
              'Serve an API reference page (Swagger UI) of the OpenAPI document at /docs (env ROUTELESS_DOCS=1)',
          }),
      serve,
    )
    .command(
      'routes',
      'Print the route table: method, path, file, class.method, parameters',
      () => {},
      async (args) => {
        code = await routesCommand((await settings(args)).prefix, io)
      },
    )
    .command(
      'explain <method> <path>',
      'How METHOD PATH resolves: module, class, method, positional and keyword arguments; ' +
        'or why it is a 404/405, with the nearest handlers',
      (y) =>
        y
          .positional('method', { type: 'string', describe: 'GET, POST …', demandOption: true })
          .positional('path', { type: 'string', describe: '/users/posts/7?x=1', demandOption: true })
          .option('code', { type: 'boolean', describe: "Print the handler's generated function too" }),
      async (args) => {
        code = await explainCommand((await settings(args)).prefix, args.method, args.path, io, Boolean(args.code))
      },
    )
    .command(
      'check',
      'Lint the controller tree: names no request can spell, look-alike handler names (get, Get), ' +
        'params keys naming no handler, parameters without a schema; exit 1 when any',
      () => {},
      async (args) => {
        code = await checkCommand((await settings(args)).prefix, io)
      },
    )
    .command(
      'client',
      "Write a typed fetch client of the API (api.users.posts.get(7, { x: 1 })), its types from the handlers' signatures",
      (y) => y.option('out', { type: 'string', describe: 'The TypeScript file to write', demandOption: true }),
      async (args) => {
        code = await clientCommand((await settings(args)).prefix, args.out, io)
      },
    )
    .command(
      'build',
      'Write the signature manifest (handler types read by the TypeScript checker) so that serving needs neither ' +
        'typescript nor type-checking, and compile the controllers for node (served without tsx while unchanged); ' +
        '--target=worker: one self-contained module for Cloudflare Workers (and deno serve, bun)',
      (y) =>
        y
          .option('target', {
            choices: ['manifest', 'worker'] as const,
            default: 'manifest' as const,
            describe: 'manifest: the signature manifest; worker: a bundle whose default export is { fetch }',
          })
          .option('out', {
            type: 'string',
            describe: `Where to write it (default ${MANIFEST_PATH}; with --target=worker, ${WORKER_OUT})`,
          })
          .option('strict', {
            type: 'boolean',
            describe: 'A parameter whose type cannot be checked is an error: exit 1, write nothing',
          }),
      async (args) => {
        const { prefix, file, config } = await settings(args)
        code =
          args.target === 'worker'
            ? await workerCommand(prefix, args.out ?? WORKER_OUT, file, io, Boolean(args.strict), config)
            : await buildCommand(prefix, args.out ?? MANIFEST_PATH, io, Boolean(args.strict), config.auth)
        const onNode = !process.versions.bun && !process.versions.deno
        if (code === 0 && args.target !== 'worker' && onNode) code = await nodeBuildCommand(prefix, file, config, io)
      },
    )
    .command(
      'openapi',
      'Print the OpenAPI document generated from the controllers (3.1; --spec=3.2 for OpenAPI 3.2)',
      (y) =>
        y
          .option('title', {
            type: 'string',
            describe:
              'info.title of the document (default: the config\'s openapi.info.title, else "routeless application")',
          })
          .option('api-version', {
            type: 'string',
            describe: "info.version of the document (default: the config's, else 0.0.0)",
          })
          .option('spec', {
            type: 'string',
            choices: ['3.1', '3.2'] as const,
            describe: "OpenAPI version: 3.2 adds QUERY operations and streamed items (default: the config's, else 3.1)",
          })
          .option('host', {
            type: 'string',
            describe:
              "The document's server, http://<host> (default: the config's openapi.servers, else its host, else /)",
          }),
      async (args) => {
        const { config, prefix } = await settings(args)
        const info = config.openapi?.info
        const host = args.host ?? env.ROUTELESS_HOST ?? config.host
        code = await openapiCommand(
          prefix,
          {
            ...config.openapi,
            info: {
              ...info,
              title: args.title ?? info?.title ?? 'routeless application',
              version: args['api-version'] ?? info?.version ?? '0.0.0',
            },
            ...(args.spec ? { version: args.spec } : {}),
            ...(config.openapi?.servers || !host ? {} : { servers: [{ url: serverUrl(host) }] }),
          },
          io,
        )
      },
    )
    .command(
      'asyncapi',
      'Print the AsyncAPI 3.0 document of the WebSocket handlers and event streams',
      (y) =>
        y
          .option('title', { type: 'string', describe: "info.title (default: the config's openapi.info.title)" })
          .option('api-version', { type: 'string', describe: "info.version (default: the config's, else 0.0.0)" }),
      async (args) => {
        const { config, prefix } = await settings(args)
        const info = config.openapi?.info
        const title = args.title ?? info?.title ?? 'routeless application'
        const servers = config.openapi?.servers
        code = await asyncapiCommand(
          prefix,
          { info: { ...info, title, version: args['api-version'] ?? info?.version ?? '0.0.0' }, servers },
          io,
        )
      },
    )
    .strict()
    .version(version())
    .help()
    .exitProcess(false)
    .fail((message, error) => {
      // Thrown, not returned: a usage mistake (`--port=…`, `routeless rotues`) must stop here, before any command runs.
      throw new UsageError(error ? error.message : message)
    })
  return usageErrors(io, async () => (await parser.parseAsync(), code))
}

/** `--host=api.example.com:8443` → `http://api.example.com:8443`; a URL stays as it is. */
function serverUrl(host: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host.replace(/\/+$/, '') : `http://${host}`
}
