/**
 * Structured logging: JSON lines with levels, or pretty lines on a terminal. The access log that writes a line per
 * request is a wrapper: `runtime/wrappers/access-log.ts`.
 * @module
 */

export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export interface Logger {
  error(message: string, error?: unknown): void
  warn?(message: string, fields?: Record<string, unknown>): void
  info?(message: string, fields?: Record<string, unknown>): void
  debug?(message: string, fields?: Record<string, unknown>): void
}

export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]

export interface LoggerOptions {
  level?: LogLevel
  /** Where lines go (default: stderr). */
  write?: (line: string) => void
  /**
   * `json` (one object per line, for machines), `pretty` (one human line per record: `12:00:01 GET /foo 200 1.2 ms`),
   * or `auto` (default): pretty when the lines go to a terminal (stderr, when `write` is not given), else JSON.
   */
  format?: LogFormat
}

/** A logger writing one JSON object (or, in a terminal, one human line) per record, dropping records below `level`. */
export function createLogger(options: LoggerOptions = {}): Logger & { level: LogLevel; format: 'json' | 'pretty' } {
  const level = options.level ?? 'info'
  const rank = LOG_LEVELS.indexOf(level)
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`))
  const format =
    options.format === 'json' || options.format === 'pretty'
      ? options.format
      : !options.write && process.stderr.isTTY
        ? 'pretty'
        : 'json'
  const colour = format === 'pretty' && !options.write && process.stderr.isTTY === true && !process.env.NO_COLOR
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (LOG_LEVELS.indexOf(lvl) > rank || rank === 0) return
    const time = new Date()
    write(
      format === 'pretty'
        ? prettyLine(time, lvl, msg, fields, colour)
        : JSON.stringify({ time: time.toISOString(), level: lvl, msg, ...fields }),
    )
  }
  return {
    level,
    format,
    error: (msg, error) => emit('error', msg, error === undefined ? undefined : { error: describe(error) }),
    warn: (msg, fields) => emit('warn', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    debug: (msg, fields) => emit('debug', msg, fields),
  }
}

const PAINT = { red: 31, yellow: 33, green: 32, cyan: 36, dim: 2 } as const

/**
 * One human line: `12:00:01.250 GET /foo 200 1.2 ms` for a request, `12:00:01.250 WARN message key=value` otherwise
 * (an error's stack on the lines after it).
 */
export function prettyLine(
  time: Date,
  level: LogLevel,
  msg: string,
  fields: Record<string, unknown> = {},
  colour = false,
): string {
  const paint = (c: keyof typeof PAINT, text: string) => (colour ? `\x1b[${PAINT[c]}m${text}\x1b[0m` : text)
  const clock = paint('dim', `${time.toTimeString().slice(0, 8)}.${String(time.getMilliseconds()).padStart(3, '0')}`)
  if (msg === 'request' && typeof fields.status === 'number') {
    // The ids (request, trace, span) are for machines: a human line shows them at debug level only.
    const { method, path, status, duration_ms, request_id, trace_id, span_id, ...rest } = fields
    const code = String(status)
    const shade = status >= 500 ? 'red' : status >= 400 ? 'yellow' : 'green'
    const ids = trace_id === undefined ? ` ${request_id}` : ` ${request_id} trace ${trace_id} span ${span_id}`
    return `${clock} ${method} ${path} ${paint(shade, code)} ${duration_ms} ms${extras(rest)}${level === 'debug' ? paint('dim', ids) : ''}`
  }
  const tag =
    level === 'error'
      ? paint('red', 'ERROR')
      : level === 'warn'
        ? paint('yellow', 'WARN')
        : paint('cyan', level.toUpperCase())
  const { error, ...rest } = fields as { error?: { stack?: string; message?: string } }
  const stack =
    error && typeof error === 'object'
      ? `\n${error.stack ?? error.message}`
      : error !== undefined
        ? ` ${String(error)}`
        : ''
  return `${clock} ${tag} ${msg}${extras(rest)}${stack}`
}

function extras(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([k, v]) => ` ${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('')
}

function describe(error: unknown): unknown {
  return error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : error
}
