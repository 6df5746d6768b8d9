/**
 * Request targets: one policy on both servers (request-target.ts) — asterisk-form, absolute-form, dot segments,
 * and methods Fetch forbids, with an application-wide error renderer in place.
 */
import { expect } from 'vitest'
import { describeServers, probe } from './_servers.ts'
import { send } from './_wire.ts'

const get = (target: string, method = 'GET') => `${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`

describeServers('request targets', (server, name) => {
  probe(
    name,
    'OPTIONS * → 204 with Allow listing the methods the application answers, never 500',
    async () => {
      const { answers, raw } = await send(server().port, get('*', 'OPTIONS'))
      expect(
        answers.map((a) => a.status),
        raw,
      ).toEqual([204])
      expect(answers[0]!.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST'])
      expect(raw).not.toMatch(/TypeError|at \w+ \(/)
    },
    'uWS routes only targets starting with "/": it never calls routeless for `*` and closes the connection',
  )

  probe(
    name,
    'GET * → 400 (asterisk-form is for OPTIONS only)',
    async () => {
      const { answers, raw, closed } = await send(server().port, get('*'))
      if (answers.length === 0) expect(closed, raw).toBe(true)
      else
        expect(
          answers.map((a) => a.status),
          raw,
        ).toEqual([400])
    },
    'uWS routes only targets starting with "/": it never calls routeless for `*` and holds the connection unanswered',
  )

  probe(
    name,
    'absolute-form GET http://example.com/files/x → routed as /files/x',
    async () => {
      const { answers, raw } = await send(server().port, get('http://example.com/files/x?q=1'))
      expect(
        answers.map((a) => a.status),
        raw,
      ).toEqual([200])
      expect(JSON.parse(answers[0]!.body.toString())).toEqual(['files', 'x'])
    },
    'uWS routes only targets starting with "/": it never calls routeless for absolute-form',
  )

  for (const target of [
    '/files/../secret',
    '/files/%2e%2e/secret',
    '/files/.%2E/secret',
    '/files/..',
    '/files/./x',
    '/files/a%2Fb',
  ]) {
    probe(name, `dot segments and encoded separators: ${target} → 404`, async () => {
      const { answers, raw } = await send(server().port, get(target))
      expect(
        answers.map((a) => a.status),
        raw,
      ).toEqual([404])
      expect(raw).not.toContain('secret"')
    })
  }

  const upgrade = (target: string) =>
    `GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`

  probe(
    name,
    'a WebSocket upgrade follows the same policy: /chat upgrades, /files/../chat and /x/%2e%2e/chat → 404',
    async () => {
      const ok = await send(server().port, upgrade('/chat'), { answers: 1 })
      expect(
        ok.answers.map((a) => a.status),
        ok.raw,
      ).toEqual([101])
      for (const target of ['/files/../chat', '/x/%2e%2e/chat']) {
        const { answers, raw } = await send(server().port, upgrade(target), { answers: 1 })
        expect(
          answers.map((a) => a.status),
          raw,
        ).toEqual([404])
      }
    },
  )

  for (const method of ['TRACE', 'TRACK']) {
    probe(
      name,
      `${method} with an application error renderer → answered, not 500`,
      async () => {
        const { answers, raw } = await send(server().port, get('/files/x', method))
        expect(answers.length, raw).toBe(1)
        expect(answers[0]!.status).not.toBe(500)
        expect(answers[0]!.status).toBeGreaterThanOrEqual(400)
      },
      method === 'TRACK'
        ? 'uWS closes the connection on a method token it does not know, before routeless sees it'
        : undefined,
    )
  }

  probe(
    name,
    'CONNECT → refused (4xx/501), not 500, never silence',
    async () => {
      const { answers, raw } = await send(
        server().port,
        'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      )
      expect(answers.length, raw).toBe(1)
      expect([400, 405, 501]).toContain(answers[0]!.status)
    },
    'uWS does not route the authority-form target of CONNECT and closes the connection',
  )
})
