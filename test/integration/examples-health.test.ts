/**
 * Each example's health endpoints, on the example as `npm start` runs it (src/main.ts in its own process, SQLite):
 * `/healthz` alive, `/readyz` ready with its database up, and on SIGTERM `/readyz` 503 "draining" for DRAIN_DELAY_MS
 * while the server still serves, then exit 0. (Dependencies going down: examples/translation/test/faults.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startChildInstance } from '@routeless/example-kit/testing'
import { describe, expect, it } from 'vitest'

const EXAMPLES = ['configurations', 'translation', 'verification']
const DELAY = 1500
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe.each(EXAMPLES)('the %s example', { timeout: 150_000 }, (example) => {
  it('answers /healthz and /readyz, and /readyz 503 while it drains after SIGTERM, then exits 0', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), `health-${example}-`))
    const main = fileURLToPath(new URL(`../../examples/${example}/src/main.ts`, import.meta.url))
    // A cold start reads every handler's types (the manifest is stale after an edit): allow for it.
    const instance = await startChildInstance(
      main,
      { DATA_DIR: dataDir, DRAIN_DELAY_MS: String(DELAY) },
      { timeoutMs: 120_000 },
    )
    try {
      const get = async (p: string) => {
        const res = await fetch(`${instance.url}${p}`, { headers: { connection: 'close' } })
        return [res.status, await res.json()]
      }
      expect(await get('/healthz')).toEqual([200, { status: 'alive' }])
      expect(await get('/readyz')).toEqual([200, { status: 'ready', down: [], checks: { database: 'up' } }])
      const exited = new Promise<number | null>((resolve) => instance.child.once('exit', resolve))
      const started = Date.now()
      instance.child.kill('SIGTERM')
      await sleep(300)
      expect(await get('/readyz')).toEqual([503, { status: 'draining', down: [], checks: { database: 'up' } }])
      expect(await get('/healthz')).toEqual([200, { status: 'alive' }]) // still serving
      expect(await exited).toBe(0)
      expect(Date.now() - started).toBeGreaterThanOrEqual(DELAY - 10)
    } finally {
      await instance.kill()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
