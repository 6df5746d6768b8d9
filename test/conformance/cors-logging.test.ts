import { expect, it } from 'vitest'
import { createLogger } from 'routeless'
import { describeTargets } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

describeTargets(
  'CORS',
  fixtureApp('basic', { cors: { origins: ['https://app.example'], credentials: true, exposeHeaders: ['X-Trace-ID'] } }),
  (t) => {
    it('answers a preflight from an allowed origin with the route methods', async () => {
      const res = await t().request('/', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-custom',
        },
      })
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
      expect(res.headers.get('access-control-allow-credentials')).toBe('true')
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS')
      expect(res.headers.get('access-control-allow-headers')).toBe('content-type, x-custom')
      expect(res.headers.get('access-control-max-age')).toBe('600')
      expect(res.headers.get('vary')).toContain('Origin')
    })
    it('gives no CORS headers to an origin outside the allow-list', async () => {
      const preflight = await t().request('/', {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      })
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
      const res = await t().request('/foo', { headers: { origin: 'https://evil.example' } })
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
      expect(res.headers.get('vary')).toContain('Origin')
    })
    it('adds CORS headers and Vary to simple requests from an allowed origin', async () => {
      const res = await t().request('/foo', { headers: { origin: 'https://app.example' } })
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example')
      expect(res.headers.get('access-control-expose-headers')).toBe('X-Trace-ID')
      expect(res.headers.get('vary')).toContain('Origin')
      expect(await res.text()).toBe('"Foo handler"')
    })
    it('does not answer preflights for paths no controller serves', async () => {
      const res = await t().request('/foo/x/y', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
      })
      expect(res.status).toBe(404)
    })
  },
)

const lines: string[] = []
describeTargets(
  'Access log',
  fixtureApp('basic', { accessLog: true, logger: createLogger({ level: 'info', write: (l) => lines.push(l) }) }),
  (t) => {
    it('logs method, path, status, duration and the request id, and echoes X-Request-ID', async () => {
      const res = await t().request('/foo?x=1', { headers: { 'x-request-id': 'req-123' } })
      expect(res.headers.get('x-request-id')).toBe('req-123')
      const line = lines.map((l) => JSON.parse(l)).find((l) => l.request_id === 'req-123')
      expect(line).toMatchObject({ level: 'info', msg: 'request', method: 'GET', path: '/foo', status: 200 })
      expect(typeof line.duration_ms).toBe('number')
    })
    it('generates a request id when none (or a malformed one) is given', async () => {
      const res = await t().request('/nope', { headers: { 'x-request-id': 'bad id with spaces' } })
      expect(res.status).toBe(404)
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    })
    it('drops records below the level', () => {
      const quiet: string[] = []
      const logger = createLogger({ level: 'warn', write: (l) => quiet.push(l) })
      logger.info?.('hidden')
      logger.warn?.('shown')
      logger.error('shown too', new Error('x'))
      expect(quiet.map((l) => JSON.parse(l).msg)).toEqual(['shown', 'shown too'])
    })
  },
)
