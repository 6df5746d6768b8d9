/**
 * `routeless --workers=2` as users run it: the built CLI (packages/routeless/dist/bin.js, from `npm run build`) in a
 * child process, on uWebSockets.js and on node:http. Several processes answer one port, and SIGTERM drains a
 * request in flight before everything exits 0.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const BIN = fileURLToPath(new URL('../../packages/routeless/dist/bin.js', import.meta.url))
const running: ChildProcessWithoutNullStreams[] = []

/** A controller tree in a fresh directory: `/pid` names the process answering, `/slow/<name>` waits for a file. */
function controllers(): { dir: string; release: (name: string) => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-workers-'))
  writeFileSync(
    path.join(dir, 'index.mjs'),
    `
import { existsSync } from 'node:fs'
const here = new URL('.', import.meta.url).pathname
export class Pid { GET() { return process.pid } }
export class Slow {
  GET(name) {
    // Streams "start;" at once, then "end" once the test creates the file: in flight for as long as the test wants.
    this.response.headers.set('content-type', 'text/plain') // a generator's chunks as they are, not a JSON array
    return (async function* () {
      yield 'start;'
      while (!existsSync(here + name)) await new Promise((r) => setTimeout(r, 10))
      yield 'end'
    })()
  }
}
`,
  )
  return { dir, release: (name) => writeFileSync(path.join(dir, name), '') }
}

function start(args: string[], cwd: string) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, ROUTELESS_LOG_LEVEL: 'warn' } })
  running.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(stdout)
      if (m) resolve(m[1]!)
    })
    child.on('close', () => reject(new Error(`exited before listening: ${stderr}`)))
  })
  listening.catch(() => {})
  return { child, exited, listening, output: () => stdout + stderr }
}

/** A GET on a new connection each time (no keep-alive), so that every request may land on another worker. */
function getFresh(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      let body = ''
      res.on('data', (d) => (body += d))
      res.on('end', () => resolve(body))
    })
      .on('error', reject)
      .end()
  })
}

/** Resolves once a new connection to `url` is refused. */
async function refused(url: string): Promise<void> {
  const { port, hostname } = new URL(url)
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname)
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (!ok) return
    await new Promise((r) => setTimeout(r, 10))
  }
}

afterEach(() => {
  for (const c of running.splice(0)) if (c.exitCode === null) c.kill('SIGKILL')
})

describe.skipIf(!existsSync(BIN))('routeless --workers (built CLI)', () => {
  for (const server of ['uws', 'node']) {
    it(`serves one port from two processes on ${server}`, async () => {
      const { dir } = controllers()
      const s = start(['--prefix=.', '--host=127.0.0.1:0', `--server=${server}`, '--workers=2'], dir)
      const url = await s.listening
      expect(s.output()).toMatch(new RegExp(`listening on ${url} \\(${server}, 2 workers\\)`))
      const pids = new Set<string>()
      // node:cluster deals connections round-robin; uWS workers share the port with SO_REUSEPORT and the kernel
      // hashes each new connection to one of them: a few dozen connections reach both.
      for (let i = 0; i < 200 && pids.size < 2; i++) pids.add(await getFresh(`${url}/pid`))
      expect(pids.size).toBe(2)
      expect(pids.has(String(s.child.pid))).toBe(false)
      s.child.kill('SIGTERM')
      expect(await s.exited).toBe(0)
    })

    it(`drains a request in flight on SIGTERM and exits 0 (${server})`, async () => {
      const { dir, release } = controllers()
      const s = start(['--prefix=.', '--host=127.0.0.1:0', `--server=${server}`, '--workers=2'], dir)
      const url = await s.listening
      const body = new Promise<string>((resolve, reject) => {
        httpRequest(`${url}/slow/go`, { agent: false }, (res) => {
          let text = ''
          res.on('data', (d) => {
            text += d
            // The first chunk is here: the request is in flight. Stop the server; once it no longer accepts
            // connections (it is draining), let the handler finish.
            if (text === 'start;') {
              s.child.kill('SIGTERM')
              void refused(url).then(() => release('go'))
            }
          })
          res.on('end', () => resolve(text))
        })
          .on('error', reject)
          .end()
      })
      expect(await body).toBe('start;end')
      expect(await s.exited).toBe(0)
    })
  }

  it('rejects --workers=0', async () => {
    const { dir } = controllers()
    const s = start(['--prefix=.', '--workers=0'], dir)
    expect(await s.exited).toBe(2)
    expect(s.output()).toContain('Invalid --workers "0"')
  })
})
