/** Log formats: JSON lines for machines, one human line per record in a terminal. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLogger, prettyLine } from '../../packages/routeless/src/runtime/base/logging.ts'

afterEach(() => vi.restoreAllMocks())

describe('createLogger', () => {
  it('writes pretty lines when stderr is a terminal and JSON lines when it is not (format auto)', () => {
    const tty = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY')
    const written: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true))
    try {
      Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true })
      const pretty = createLogger({ format: 'auto' })
      expect(pretty.format).toBe('pretty')
      pretty.info?.('request', { method: 'GET', path: '/foo', status: 200, duration_ms: 1.25, request_id: 'r1' })
      Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true })
      const json = createLogger({ format: 'auto' })
      expect(json.format).toBe('json')
      json.info?.('request', { method: 'GET', path: '/foo', status: 200, duration_ms: 1.25, request_id: 'r1' })
    } finally {
      if (tty) Object.defineProperty(process.stderr, 'isTTY', tty)
      else delete (process.stderr as { isTTY?: boolean }).isTTY
    }
    expect(written[0]!.replace(/\x1b\[\d+m/g, '')).toMatch(/^\d\d:\d\d:\d\d\.\d{3} GET \/foo 200 1\.25 ms\n$/)
    expect(JSON.parse(written[1]!)).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/foo',
      status: 200,
    })
  })

  it('keeps the level filter in either format', () => {
    const lines: string[] = []
    const logger = createLogger({ level: 'warn', format: 'pretty', write: (l) => lines.push(l) })
    logger.info?.('request', { method: 'GET', path: '/', status: 200, duration_ms: 1 })
    logger.warn?.('careful', { file: 'a.ts' })
    logger.error('broken', new Error('boom'))
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^\S+ WARN careful file=a\.ts$/)
    expect(lines[1]).toMatch(/^\S+ ERROR broken\nError: boom\n\s+at /)
  })
})

describe('prettyLine', () => {
  it('colours the status by class only when asked, and shows the request id at debug', () => {
    const at = new Date(2026, 0, 2, 3, 4, 5, 6)
    expect(
      prettyLine(at, 'info', 'request', { method: 'POST', path: '/x', status: 503, duration_ms: 12, request_id: 'id' }),
    ).toBe('03:04:05.006 POST /x 503 12 ms')
    expect(
      prettyLine(
        at,
        'info',
        'request',
        { method: 'POST', path: '/x', status: 404, duration_ms: 1, request_id: 'id' },
        true,
      ),
    ).toContain('\x1b[33m404\x1b[0m')
    expect(
      prettyLine(at, 'debug', 'request', { method: 'GET', path: '/', status: 200, duration_ms: 1, request_id: 'abc' }),
    ).toBe('03:04:05.006 GET / 200 1 ms abc')
  })
})
