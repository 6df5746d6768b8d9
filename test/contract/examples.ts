/**
 * The three example APIs as the contract test serves them (each test's own helper: routeless/node on a free port, a
 * fresh SQLite database), and the credentials of each declared security scheme.
 */
import {
  API_KEY as V_API_KEY,
  PARTNER_ID,
  startServer as startVerification,
} from '../../examples/verification/test/helpers/server.ts'
import { ADMIN_KEY, API_KEY, startServer as startTranslation } from '../../examples/translation/test/_server.ts'
import { ALICE, SQLITE, startApi } from '../../examples/configurations/test/harness.ts'
import type { Operation } from './document.ts'
import type { Target } from './runner.ts'

export interface Served extends Target {
  close(): Promise<void>
}

export const EXAMPLES: Record<string, () => Promise<Served>> = {
  async configurations() {
    const api = await startApi(SQLITE)
    // A session of its own for each operation: POST /logout ends the one it is sent with.
    const login = async () => {
      const res = await fetch(`${api.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ALICE),
      })
      await res.body?.cancel()
      const token = res.headers.get('x-session-token')
      if (res.status !== 200 || !token) throw new Error(`login failed: ${res.status}`)
      return token
    }
    return {
      url: api.url,
      async credentials(op: Operation): Promise<Record<string, string>> {
        const token = await login()
        return op.security.includes('session') ? { cookie: `session=${token}` } : { authorization: `Bearer ${token}` }
      },
      close: () => api.close(),
    }
  },

  async translation() {
    const server = await startTranslation()
    return {
      url: server.url,
      async credentials(op: Operation): Promise<Record<string, string>> {
        // A signature scheme: one that matches no job (the generated job ids match none either).
        if (op.security.some((name) => /signature/i.test(name))) return { authorization: 'DeepL-Signature 0000' }
        return { authorization: `DeepL-Auth-Key ${op.path.startsWith('/v2/admin/') ? ADMIN_KEY : API_KEY}` }
      },
      close: () => server.close(),
    }
  },

  async verification() {
    const server = await startVerification()
    const res = await fetch(`${server.url}/v3/token`, {
      method: 'POST',
      headers: { 'smileid-partner-id': PARTNER_ID, 'smileid-api-key': V_API_KEY },
    })
    const { token } = (await res.json()) as { token: string }
    return {
      url: server.url,
      credentials: async () => ({ 'SmileID-Token': token }),
      close: () => server.close(),
    }
  },
}
