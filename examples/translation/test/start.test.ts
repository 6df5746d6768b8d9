/**
 * The newcomer's path: `npm start` with PORT, DATA_DIR, ADMIN_KEY and API_KEY, a curl-style translation, a key made
 * with the CLI, and the data still there after a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { runKeysCli } from '../src/cli.ts'

const dir = fileURLToPath(new URL('..', import.meta.url))
const dataDir = mkdtempSync(path.join(tmpdir(), 'translation-start-'))
const children: ChildProcess[] = []

afterAll(() => {
  for (const c of children) c.kill('SIGTERM')
  rmSync(dataDir, { recursive: true, force: true })
})

/** Runs `npm start` (its script: node --import tsx src/main.ts) and waits for the "listening" line. */
async function start(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up line in 15 s:\n${output}`)), 15_000)
    const onData = (chunk: Buffer) => {
      output += chunk
      const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)))
  })
  return { url, child }
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

describe('npm start', () => {
  it('serves with the documented variables, registers the start-up keys, and keeps data over a restart', async () => {
    const env = { PORT: '0', DATA_DIR: dataDir, ADMIN_KEY: 'operator-admin:adm', API_KEY: 'operator-api-key' }
    const first = await start(env)
    const res = await fetch(`${first.url}/v2/translate`, {
      method: 'POST',
      headers: {
        Authorization: 'DeepL-Auth-Key operator-api-key',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'text=Hello%2C%20world!&target_lang=DE',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ translations: [{ detected_source_language: 'EN', text: 'Hallo, Welt!' }] })
    const created = await fetch(`${first.url}/v2/admin/developer-keys`, {
      method: 'POST',
      headers: { Authorization: 'DeepL-Auth-Key operator-admin:adm', 'Content-Type': 'application/json' },
      body: '{"label":"From curl"}',
    })
    expect(created.status).toBe(200)
    await stop(first.child)

    // The CLI works on the same data directory.
    const lines: string[] = []
    expect(await runKeysCli(['create', '--label', 'From the CLI'], { DATA_DIR: dataDir }, (l) => lines.push(l))).toBe(0)
    const secret = lines
      .find((l) => l.startsWith('key:'))!
      .slice(4)
      .trim()
    const listed: string[] = []
    await runKeysCli(['list'], { DATA_DIR: dataDir }, (l) => listed.push(l))
    expect(listed.join('\n')).toMatch(/From curl[\s\S]*From the CLI/)
    expect(await runKeysCli(['rotate'], { DATA_DIR: dataDir }, () => {})).toBe(2)

    const second = await start(env)
    const usage = await fetch(`${second.url}/v2/usage`, {
      headers: { Authorization: 'DeepL-Auth-Key operator-api-key' },
    })
    expect(((await usage.json()) as any).character_count).toBe(13)
    const cliKey = await fetch(`${second.url}/v2/usage`, { headers: { Authorization: `DeepL-Auth-Key ${secret}` } })
    expect(cliKey.status).toBe(200)
    await stop(second.child)
  })
})
