/**
 * `routeless.config.ts`: the app options the CLI cannot take as flags (`cors`, `context`, `renderError`, a logger …)
 * and the CLI's own settings, in one typed file beside the controllers, so an app that needs them is still served by
 * `npx routeless` with `--workers`, `--watch` and `--server`. Flags, then `ROUTELESS_*` variables, win over the file.
 * @module
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { importModule } from '../runtime/routing/ts-loader.ts'
import { APP_KEYS, type RoutelessConfig, type ServerName } from './config-options.ts'

export {
  appOptionsFromConfig,
  appOptionsOf,
  defineConfig,
  makeContext,
  SERVERS,
  type RoutelessConfig,
  type ServerName,
} from './config-options.ts'

/** The CLI's server when none is asked for: Bun's own when it runs on Bun, else node:http. */
export function defaultServer(): ServerName {
  return 'Bun' in globalThis ? 'bun' : 'node'
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

/** The config file the CLI reads: `given` (relative to `cwd`), or the first of `CONFIG_FILES` there. */
export function configFileOf(given: string | undefined, cwd: string): string | undefined {
  if (given !== undefined) return path.resolve(cwd, given)
  return CONFIG_FILES.map((f) => path.join(cwd, f)).find((f) => existsSync(f))
}

/**
 * Reads the config file `given` (relative to `cwd`), or the first of `CONFIG_FILES` in `cwd`. Throws a clear error
 * for a missing `given` file, a file without a default export object, or an option that does not exist. Prefixes
 * come back absolute (they are relative to the file). `compiled` imports it as `routeless build` compiled it.
 */
export async function loadConfig(
  given: string | undefined,
  cwd = process.cwd(),
  compiled?: () => Promise<Record<string, unknown>>,
): Promise<LoadedConfig> {
  const file = configFileOf(given, cwd)
  if (file === undefined) return { file: undefined, config: {} }
  if (!existsSync(file)) throw new ConfigError(`config file ${given} not found`)
  let ns: Record<string, unknown>
  try {
    // `compiled`: the file as `routeless build` compiled it (compiler/bundle/node-load.ts), fresh.
    ns = compiled ? await compiled() : await importModule(pathToFileURL(file).href, file)
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
