/**
 * The serve command's common flags read without yargs: `routeless --host=127.0.0.1:8000 --prefix=controllers`
 * (`--prefix`, `--host`, `--server`, `--workers`, `--log-level`, `--log-format` in their `=` and space forms,
 * `--watch`, `--no-watch`, an optional leading `serve`). yargs's parser and help layout cost more start-up than the
 * rest of the CLI; anything else on the command line (another flag, a repeated one, a value that looks like a flag,
 * a server that is not one) is left to yargs, so that its usage errors and messages stay exactly as they are.
 * @module
 */
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from '../runtime/base/logging.ts'
import { SERVERS, type ServerName } from './config.ts'

/** The serve command's flags, as yargs parses them (and as `commonFlags` returns the common ones). */
export interface ServeArgs {
  prefix?: unknown
  config?: string
  'body-limit'?: number
  host?: string
  'log-level'?: LogLevel
  'log-format'?: LogFormat
  watch?: boolean
  server?: ServerName
  metrics?: string
  workers?: string
  'drain-delay'?: number
  docs?: boolean
}

/** The flags that take a value, with the choices yargs would check (undefined: any text). */
const VALUED: Record<string, readonly string[] | undefined> = {
  prefix: undefined,
  host: undefined,
  workers: undefined,
  server: SERVERS,
  'log-level': LOG_LEVELS,
  'log-format': LOG_FORMATS,
}

/**
 * `argv` read as yargs would read it, when it holds only the common serve flags; undefined when anything in it is
 * for yargs to read (or to reject).
 */
export function commonFlags(argv: readonly string[]): ServeArgs | undefined {
  const args: ServeArgs = {}
  const prefix: string[] = []
  let i = argv[0] === 'serve' ? 1 : 0
  while (i < argv.length) {
    const token = argv[i++]!
    if (token === '--watch' || token === '--no-watch' || token === '--watch=true' || token === '--watch=false') {
      if (args.watch !== undefined) return undefined
      args.watch = token === '--watch' || token === '--watch=true'
      continue
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(token)
    if (!m || !Object.hasOwn(VALUED, m[1]!)) return undefined
    const name = m[1] as 'prefix' | 'host' | 'workers' | 'server' | 'log-level' | 'log-format'
    let value = m[2]
    if (value === undefined) {
      value = argv[i++]
      if (value === undefined || value.startsWith('-')) return undefined
    }
    // Empty, quoted or multi-line values: yargs's reading of them is yargs's.
    if (value === '' || /["'\n]/.test(value)) return undefined
    if (name === 'prefix') {
      prefix.push(value)
      continue
    }
    // Given twice, yargs makes an array of it (and the serve command a mistake of that): its to read.
    const choices = VALUED[name]
    if (args[name] !== undefined || (choices && !choices.includes(value))) return undefined
    ;(args as Record<string, string>)[name] = value
  }
  if (prefix.length) args.prefix = prefix
  return args
}
