/**
 * The command line's values read by hand (ROUTELESS_* variables, whose text yargs does not see) and its one usage
 * error: a mistake told on stderr with exit code 2.
 * @module
 */
import { ConfigError, type RoutelessConfig } from './config.ts'
import type { CliIO } from './io.ts'

/** Runs `command`; a mistake in the config file or the usage is told on stderr and exits 2. */
export async function usageErrors(io: CliIO, command: () => Promise<number>): Promise<number> {
  try {
    return await command()
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`routeless: ${error.message}`)
      return 2
    }
    if (!(error instanceof UsageError)) throw error
    io.stderr(`${error.message}\nRun \`routeless --help\` for the commands and options.`)
    return 2
  }
}

export function drainDelayOf(value: string): number {
  const n = Number(value)
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new UsageError('--drain-delay (ROUTELESS_DRAIN_DELAY) must be a whole number of milliseconds')
  return n
}

/** A boolean variable: 1/true/yes/on or 0/false/no/off. */
export function flagOf(name: string, value: string): boolean {
  if (/^(1|true|yes|on)$/i.test(value)) return true
  if (/^(0|false|no|off)$/i.test(value)) return false
  throw new UsageError(`${name} must be 1 or 0 (true or false), got "${value}"`)
}

export function bodyLimitOf(value: string): number {
  const n = Number(value)
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new UsageError('--body-limit (ROUTELESS_BODY_LIMIT) must be a whole number of bytes')
  return n
}

export function choiceOf<T extends string>(
  name: string,
  value: string | undefined,
  choices: readonly T[],
): T | undefined {
  if (value === undefined || value === '') return undefined
  if (!(choices as readonly string[]).includes(value))
    throw new UsageError(`${name} must be one of ${choices.join(', ')}, not "${value}"`)
  return value as T
}

/**
 * `--metrics` / `ROUTELESS_METRICS`: empty or `true` serves at /metrics, a path (`/_ops/metrics`) there, `false` turns
 * them off; the config's `metrics` object (a registry) is kept, with the path given.
 */
export function metricsOf(value: string, configured: RoutelessConfig['metrics']): RoutelessConfig['metrics'] {
  const v = value.trim()
  if (v === 'false' || v === 'off') return false
  const base = typeof configured === 'object' ? configured : {}
  if (v === '' || v === 'true' || v === 'on') return typeof configured === 'object' ? configured : true
  if (!v.startsWith('/'))
    throw new UsageError(`--metrics (ROUTELESS_METRICS) takes a path such as /metrics, or true/false; not "${value}"`)
  return { ...base, path: v }
}

/** A mistake in the command line or a ROUTELESS_* variable: told on stderr, exit 2. */
export class UsageError extends Error {}
