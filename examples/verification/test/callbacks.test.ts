import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { confirmSidSignature } from '../src/auth/sid-signature.ts'
import { V3Client } from './helpers/client.ts'
import { ekyc, person } from './helpers/fixtures.ts'
import { startReceiver } from './helpers/receiver.ts'
import { API_KEY, PARTNER_ID, startServer, type TestServer } from './helpers/server.ts'

let server: TestServer
let client: V3Client

beforeAll(async () => {
  server = await startServer()
  client = new V3Client(server.url, PARTNER_ID, API_KEY)
})
afterAll(() => server.close())

describe('callbacks', () => {
  it('POSTs the signed result to callback_url once the job is terminal, and records the delivery', async () => {
    const receiver = await startReceiver()
    try {
      const res = await client.post(
        '/v3/enhanced_kyc',
        ekyc({ callback_url: receiver.url, partner_params: { order: '77' } }),
        { 'User-ID': 'user-cb' },
      )
      const [callback] = await receiver.waitFor(1)
      const body = JSON.parse(callback!.body)
      expect(body).toMatchObject({
        job_id: res.body.job_id,
        user_id: 'user-cb',
        product: 'enhanced_kyc',
        status: 'clear',
        reason: null,
        message: 'Verification successful',
        partner_params: { order: '77' },
        antifraud: null,
      })
      expect(Date.parse(body.completed_at)).toBeGreaterThanOrEqual(Date.parse(body.created_at))
      expect(callback!.headers['content-type']).toBe('application/json')
      expect(callback!.headers['smileid-job-id']).toBe(res.body.job_id)
      const timestamp = callback!.headers['response-timestamp'] as string
      expect(
        confirmSidSignature(API_KEY, PARTNER_ID, timestamp, callback!.headers['response-signature'] as string),
      ).toBe(true)
      expect((await client.get(`/v3/status/${res.body.job_id}`)).body.status).toBe('clear')
      const [delivery] = await waitForDelivery(res.body.job_id, 'delivered')
      expect(delivery).toMatchObject({
        kind: 'callback',
        url: receiver.url,
        state: 'delivered',
        attempts: 1,
        last_status: 200,
      })
      expect(delivery!.attempt_log).toHaveLength(1)
    } finally {
      await receiver.close()
    }
  })

  it('retries with back-off when the receiver fails twice, then delivers', async () => {
    const receiver = await startReceiver({ failFirst: 2 })
    try {
      const res = await client.post(
        '/v3/enhanced_kyc',
        ekyc({ callback_url: receiver.url, user_details: person('Fatima Bello', 'Ghostwell') }),
      )
      const [callback] = await receiver.waitFor(1)
      expect(receiver.requests).toBe(3)
      expect(JSON.parse(callback!.body)).toMatchObject({
        job_id: res.body.job_id,
        status: 'block',
        reason: 'identifier_not_found',
      })
      const [delivery] = await waitForDelivery(res.body.job_id, 'delivered')
      expect(delivery!.attempts).toBe(3)
      expect(delivery!.attempt_log.map((a) => a.status_code)).toEqual([500, 500, 200])
      const gaps = delivery!.attempt_log
        .slice(1)
        .map((a, i) => Date.parse(a.started_at) - Date.parse(delivery!.attempt_log[i]!.started_at))
      expect(gaps[0]).toBeGreaterThanOrEqual(40)
      expect(gaps[1]).toBeGreaterThanOrEqual(80)
    } finally {
      await receiver.close()
    }
  })

  it('gives up after the configured attempts and records each failure', async () => {
    const res = await client.post('/v3/enhanced_kyc', ekyc({ callback_url: 'http://127.0.0.1:9/nobody-listens' }))
    const [delivery] = await waitForDelivery(res.body.job_id, 'failed', 8000)
    expect(delivery!.attempts).toBe(server.services.config.callbackAttempts)
    expect(delivery!.attempt_log.every((a) => a.status_code === null && a.error)).toBe(true)
  })
})

describe('POST /v3/replay/{job_id}', () => {
  it('answers 409 while the job is processing, then re-sends the identical payload with a fresh signature', async () => {
    const slow = await startServer({ config: { sandboxDelayMs: 600 } })
    const receiver = await startReceiver()
    try {
      const c = new V3Client(slow.url, PARTNER_ID, API_KEY)
      const res = await c.post('/v3/enhanced_kyc', ekyc({ callback_url: receiver.url }))
      const early = await c.post(`/v3/replay/${res.body.job_id}`, undefined)
      expect(early.status).toBe(409)
      expect(early.body).toEqual({
        status: 'Conflict',
        message: 'Job is still processing. Callbacks can only be replayed for completed jobs.',
      })
      const [first] = await receiver.waitFor(1)
      await new Promise((r) => setTimeout(r, 5))
      const replay = await c.post(`/v3/replay/${res.body.job_id}`, undefined)
      expect(replay.status).toBe(202)
      expect(replay.body).toEqual({
        status: 'accepted',
        job_id: res.body.job_id,
        user_id: res.body.user_id,
        message: 'Callback replay queued successfully.',
      })
      const [, second] = await receiver.waitFor(2)
      expect(second!.body).toBe(first!.body)
      expect(second!.headers['response-timestamp']).not.toBe(first!.headers['response-timestamp'])
      expect(
        confirmSidSignature(
          API_KEY,
          PARTNER_ID,
          second!.headers['response-timestamp'] as string,
          second!.headers['response-signature'] as string,
        ),
      ).toBe(true)

      const other = await startReceiver()
      try {
        const redirected = await c.post(`/v3/replay/${res.body.job_id}`, { callback_url: other.url })
        expect(redirected.status).toBe(202)
        const [third] = await other.waitFor(1)
        expect(third!.body).toBe(first!.body)
      } finally {
        await other.close()
      }
      const kinds = (await slow.services.deliveries.listForJob(res.body.job_id)).map((d) => d.kind)
      expect(kinds).toEqual(['callback', 'replay', 'replay'])
    } finally {
      await receiver.close()
      await slow.close()
    }
  })

  it.each([
    ['job_123', 400, `"job_id" must be a valid TypeID with prefix 'job_'`],
    ['job_01h455vb4pex5vsknk084sn02q', 404, 'Job not found'],
  ])('%s → %i', async (jobId, status, message) => {
    const res = await client.post(`/v3/replay/${jobId}`, undefined)
    expect(res.status).toBe(status)
    expect(res.body.message).toBe(message)
  })

  it('refuses an invalid override URL and a non-multipart body', async () => {
    const res = await client.post('/v3/enhanced_kyc/sync', ekyc())
    const bad = await client.post(`/v3/replay/${res.body.job_id}`, { callback_url: 'javascript:alert(1)' })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('No valid callback URL available')
    const json = await fetch(`${server.url}/v3/replay/${res.body.job_id}`, {
      method: 'POST',
      headers: { 'SmileID-Token': client.token!, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(json.status).toBe(415)
    const none = await client.post(`/v3/replay/${res.body.job_id}`, undefined)
    expect(none.status).toBe(400)
    expect(none.body.message).toBe('No valid callback URL available')
  })
})

async function waitForDelivery(jobId: string, state: string, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs
  for (;;) {
    const list = await server.services.deliveries.listForJob(jobId)
    if (list.length && list.every((d) => d.state === state)) return list
    if (Date.now() > end) throw new Error(`deliveries of ${jobId}: ${JSON.stringify(list)}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
