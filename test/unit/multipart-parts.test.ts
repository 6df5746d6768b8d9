/**
 * A multipart body with more parts than the limit is refused with 413 before it is parsed, and the error names the
 * limit: the application's default (1 000) and a limit given to `readBody`.
 */
import { describe, expect, it } from 'vitest'
import { createApp } from 'routeless'
import { readBody } from '../../packages/routeless/src/runtime/lifecycle/body.ts'
import { DEFAULT_PART_LIMIT } from '../../packages/routeless/src/runtime/lifecycle/multipart.ts'

function multipart(parts: number, boundary = 'XyZ'): Buffer {
  let text = ''
  for (let i = 0; i < parts; i++)
    text += `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv${i}\r\n`
  return Buffer.from(`${text}--${boundary}--\r\n`)
}

const post = (body: Buffer, type = 'multipart/form-data; boundary=XyZ') =>
  new Request('http://x/form', { method: 'POST', body: new Uint8Array(body), headers: { 'content-type': type } })

describe('multipart part limit', () => {
  const app = createApp(
    {
      modules: {
        '': {
          Form: class {
            declare body: Record<string, unknown>
            POST() {
              return Object.keys(this.body).length
            }
          },
        },
      },
    },
    { logger: { error: () => {} }, bodyLimit: 16 * 1024 * 1024 },
  )

  it('takes a body of exactly the default limit of parts', async () => {
    expect(DEFAULT_PART_LIMIT).toBe(1000)
    const response = await (await app).fetch(post(multipart(1000)))
    expect(response.status).toBe(200)
    expect(await response.json()).toBe(1000)
  })

  it('refuses one part more with 413 naming the limit', async () => {
    const response = await (await app).fetch(post(multipart(1001)))
    expect(response.status).toBe(413)
    expect((await response.json()).message).toMatch(/more than 1000 parts/)
  })

  it('refuses 140 000 tiny parts the same way', async () => {
    const response = await (await app).fetch(post(multipart(140_000)))
    expect(response.status).toBe(413)
    expect((await response.json()).message).toMatch(/1000 parts/)
  })

  it('counts with a limit given to readBody, and a quoted boundary', async () => {
    const type = 'multipart/form-data; boundary="x=y"'
    const body = (n: number) => multipart(n, 'x=y')
    const five = await readBody(post(body(5), type), { limit: 1e6, parts: 5 })
    expect(Object.keys(five.fields!)).toHaveLength(5)
    await expect(readBody(post(body(6), type), { limit: 1e6, parts: 5 })).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/more than 5 parts/),
    })
  })
})

describe('the partLimit app option', () => {
  it('sets the limit for every multipart route of the app', async () => {
    const app = await createApp(
      {
        modules: {
          '': {
            Form: class {
              declare body: Record<string, unknown>
              POST() {
                return Object.keys(this.body).length
              }
            },
          },
        },
      },
      { partLimit: 3 },
    )
    expect(await (await app.fetch(post(multipart(3)))).json()).toBe(3)
    const refused = await app.fetch(post(multipart(4)))
    expect(refused.status).toBe(413)
    expect((await refused.json()).message).toMatch(/more than 3 parts/)
  })
})
