/** Readiness (src/health.ts) and what counts as a lost connection (src/connection-loss.ts). */
import { describe, expect, it } from 'vitest'
import { isConnectionLoss, unavailable } from '../src/connection-loss.ts'
import { Readiness } from '../src/health.ts'

describe('Readiness', () => {
  it('is ready when every probe answers, and names each one that fails or never answers', async () => {
    const started = Date.now()
    const report = await new Readiness(
      [
        { name: 'database', probe: async () => 1 },
        { name: 'redis', probe: () => new Promise(() => {}) }, // accepts, never answers
        { name: 'search', probe: async () => Promise.reject(new Error('ECONNREFUSED')) },
      ],
      200,
    ).check()
    expect(report).toEqual({
      status: 'not ready',
      down: ['redis', 'search'],
      checks: { database: 'up', redis: 'timeout', search: 'down' },
    })
    expect(Date.now() - started).toBeLessThan(1000)
    expect(await new Readiness([{ name: 'database', probe: async () => 1 }]).check()).toEqual({
      status: 'ready',
      down: [],
      checks: { database: 'up' },
    })
  })

  it('says draining while the server drains, whatever its dependencies say', async () => {
    const report = await new Readiness([{ name: 'database', probe: async () => 1 }]).check({ draining: true })
    expect(report.status).toBe('draining')
  })
})

describe('isConnectionLoss', () => {
  it('knows a server that is gone or not there yet, not a query that is wrong', () => {
    for (const lost of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      Object.assign(new AggregateError([{ code: 'ECONNREFUSED' }, { code: 'ECONNREFUSED' }]), {
        errors: [{ code: 'ECONNREFUSED' }],
      }),
    ])
      expect(isConnectionLoss(lost), String(lost)).toBe(true)
    for (const wrong of [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      new Error('column "id" does not exist'),
      undefined,
      'ECONNREFUSED',
    ])
      expect(isConnectionLoss(wrong), String(wrong)).toBe(false)
  })

  it('is answered as a 503 with Retry-After', () => {
    const error = unavailable('the database')
    expect([error.status, error.message, error.headers.get('retry-after')]).toEqual([
      503,
      'Service temporarily unavailable: the database cannot be reached.',
      '2',
    ])
  })
})
