/**
 * `routeless.config.ts`: the app options the CLI cannot take as flags (`cors`, `context`, `renderError`, a logger …)
 * and the CLI's own settings, in one typed file beside the controllers, so an app that needs them is still served by
 * `npx routeless` with `--workers`, `--watch` and `--server`. Flags, then `ROUTELESS_*` variables, win over the file.
 * @module
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { AppOptions, Application } from '../app/application.ts'
import type { LogFormat, LogLevel } from '../base/logging.ts'
import type { OpenAPIOptions } from '../tooling/openapi.ts'
import { importModule } from '../routing/ts-loader.ts'

/** The servers the CLI can serve on (`--server`). */
export const SERVERS = ['node', 'uws', 'bun'] as const
export type ServerName = (typeof SERVERS)[number]

/** The CLI's server when none is asked for: Bun's own when it runs on Bun, else node:http. */
export function defaultServer(): ServerName {
  return 'Bun' in globalThis ? 'bun' : 'node'
}

export interface RoutelessConfig<Context = unknown> extends Omit<AppOptions, 'context' | 'cwd'> {
  /** Controller directories or module files, relative to the config file (`--prefix`; default `controllers`). */
  prefix?: string | string[]
  /** `host:port` to listen on (`--host`; default `127.0.0.1:8000`). */
  host?: string
  /** `node` (node:http, the default on node), `uws` (uWebSockets.js) or `bun` (Bun.serve, the default on Bun) (`--server`). */
  server?: ServerName
  /** Processes serving the port: a number, or `'auto'` for one per core (`--workers`). */
  workers?: number | 'auto'
  /** Rebuild the route table when controllers or the modules they import change (`--watch`). */
  watch?: boolean
  /** Log level of the logger the CLI makes when `logger` is not given (`--log-level`; default `info`). */
  logLevel?: LogLevel
  /** `json`, `pretty`, or `auto` (pretty in a terminal) (`--log-format`; default `auto`). */
  logFormat?: LogFormat
  /**
   * The controllers' `this.context`: a value, or a function making it (called once in each serving process, before
   * the controllers load: open databases here). Not called by `routes`, `openapi`, `build`, `explain` or `check`.
   */
  context?: Context | (() => Context | Promise<Context>)
  /** Called once the app is built, before it serves (e.g. to keep its OpenAPI document). */
  ready?: (app: Application) => void | Promise<void>
  /** Called after the server drained on SIGINT/SIGTERM (close what `context` opened). */
  close?: () => void | Promise<void>
  /**
   * Options of the OpenAPI document `routeless openapi` prints (`info`, `servers`, security schemes), and of the one
   * the API reference page shows with `docs: true`.
   */
  openapi?: OpenAPIOptions
  /** On SIGTERM, how long to go on serving with readiness failing before closing, in ms (`--drain-delay`; default 0). */
  drainDelay?: number
}

/**
 * Types a `routeless.config.ts` (it returns its argument).
 * @example
 * export default defineConfig({ prefix: 'controllers', cors: { origins: ['https://app.example'] }, context: openServices })
 */
export function defineConfig<Context = unknown>(config: RoutelessConfig<Context>): RoutelessConfig<Context> {
  return config
}

/** The names the CLI looks for in the working directory, in this order. */
export const CONFIG_FILES = [
  'routeless.config.ts',
  'routeless.config.mts',
  'routeless.config.js',
  'routeless.config.mjs',
]

export interface LoadedConfig {
  /** Absolute path of the file read, or undefined when there is none. */
  file: string | undefined
  config: RoutelessConfig
}

/** The app options a config file may give, as `createApp` takes them (`docs` is made below). */
const APP_KEYS = [
  'bodyLimit',
  'renderError',
  'logger',
  'cors',
  'auth',
  'accessLog',
  'types',
  'manifest',
  'explainNotFound',
  'tracing',
  'metrics',
  'checkReturns',
  'partLimit',
] as const satisfies readonly (keyof AppOptions)[]

const KEYS = new Set<string>([
  'prefix',
  'host',
  'server',
  'workers',
  'watch',
  'logLevel',
  'logFormat',
  'context',
  'ready',
  'close',
  'openapi',
  'drainDelay',
  'docs',
  ...APP_KEYS,
])

/**
 * Reads the config file `given` (relative to `cwd`), or the first of `CONFIG_FILES` in `cwd`. Throws a clear error
 * for a missing `given` file, a file without a default export object, or an option that does not exist. Prefixes
 * come back absolute (they are relative to the file).
 */
export async function loadConfig(given: string | undefined, cwd = process.cwd()): Promise<LoadedConfig> {
  const file =
    given !== undefined
      ? path.resolve(cwd, given)
      : CONFIG_FILES.map((f) => path.join(cwd, f)).find((f) => existsSync(f))
  if (file === undefined) return { file: undefined, config: {} }
  if (!existsSync(file)) throw new ConfigError(`config file ${given} not found`)
  let ns: Record<string, unknown>
  try {
    ns = await importModule(pathToFileURL(file).href, file)
  } catch (cause) {
    throw new ConfigError(`${path.relative(cwd, file) || file} failed to load: ${(cause as Error).message ?? cause}`, {
      cause,
    })
  }
  // A .ts config outside a "type": "module" package loads as CommonJS: its default export arrives one level down.
  let config = ns.default as RoutelessConfig | { default?: RoutelessConfig } | undefined
  if (
    config &&
    typeof config === 'object' &&
    'default' in config &&
    Object.keys(config).every((k) => k === 'default' || k === '__esModule')
  )
    config = config.default
  if (typeof config !== 'object' || config === null) {
    throw new ConfigError(`${path.relative(cwd, file)} must export default defineConfig({ … })`)
  }
  const unknown = Object.keys(config).filter((k) => !KEYS.has(k))
  if (unknown.length)
    throw new ConfigError(
      `${path.relative(cwd, file)}: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`,
    )
  const c = config as RoutelessConfig
  const base = path.dirname(file)
  const prefix =
    c.prefix === undefined
      ? undefined
      : (Array.isArray(c.prefix) ? c.prefix : [c.prefix])
          .flatMap((p) => p.split(':'))
          .filter(Boolean)
          .map((p) => path.resolve(base, p))
  return { file, config: { ...c, prefix } }
}

/** A mistake in the config file (the CLI exits 2). */
export class ConfigError extends Error {}

/** The app options a config gives (what `createApp` takes), without the CLI's own settings. */
export function appOptionsOf(config: RoutelessConfig): Omit<AppOptions, 'context'> {
  // `docs: true` shows the document `routeless openapi` prints: the config's `openapi` options apply to both.
  const docs = config.docs === true && config.openapi ? { openapi: config.openapi } : config.docs
  const entries: [string, unknown][] = APP_KEYS.map((key) => [key, config[key]])
  entries.push(['docs', docs])
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined))
}

/** The controllers' context: the config's value, or what its function makes. */
export async function makeContext(config: RoutelessConfig): Promise<unknown> {
  return typeof config.context === 'function' ? await (config.context as () => unknown)() : config.context
}

/**
 * The app options a config gives, its `context` made (a function is called once): what the CLI passes to
 * `createApp`, and what a server script of your own does with the same file
 * (`createApp('controllers', await appOptionsFromConfig(config))`).
 */
export async function appOptionsFromConfig(config: RoutelessConfig): Promise<AppOptions> {
  const context = await makeContext(config)
  return context === undefined ? appOptionsOf(config) : { ...appOptionsOf(config), context }
}
