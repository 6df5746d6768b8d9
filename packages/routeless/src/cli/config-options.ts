/**
 * What a `routeless.config.ts` holds (`RoutelessConfig`, `defineConfig`) and the app options it gives, its `context`
 * made: pure (no file read, no `node:*` import), so that a Worker bundle calls it on the config it imported. Finding
 * and loading the file is `config.ts`.
 * @module
 */
import type { Application } from '../runtime/app/application.ts'
import type { AppOptions } from '../runtime/app/options.ts'
import type { LogFormat, LogLevel } from '../runtime/base/logging.ts'
import type { OpenAPIOptions } from '../runtime/documents/openapi.ts'

/** The servers the CLI can serve on (`--server`). */
export const SERVERS = ['node', 'uws', 'bun'] as const
export type ServerName = (typeof SERVERS)[number]

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

/** The app options a config file may give, as `createApp` takes them (`docs` is made below). */
export const APP_KEYS = [
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
  'sse',
] as const satisfies readonly (keyof AppOptions)[]

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
