/**
 * The example served for a client library's own test suite (deepl-node-suite.mjs, deepl-python-suite.mjs): `npm
 * start`'s command on a free port with a fresh SQLite directory and `apiKey` registered as `API_KEY`; in mock mode with
 * `TEST_MODE=deepl-mock` and deepl-mock's proxy on `proxyPort`, in real mode without.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Starts the example; resolves once it listens (and its proxy, in mock mode). `stop()` ends it and deletes its data. */
export async function startExample(mode, { apiKey }) {
  const port = await freePort()
  const proxyPort = await freePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'client-suite-data-'))
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1', API_KEY: apiKey }
  delete env.DATABASE_URL
  delete env.MOCK_PROXY_PORT
  delete env.TEST_MODE
  if (mode === 'mock') Object.assign(env, { TEST_MODE: 'deepl-mock', MOCK_PROXY_PORT: String(proxyPort) })
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: EXAMPLE,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`the example exited (${child.exitCode}):\n${output}`)
    }
    if (/API on http/.test(output) && (mode !== 'mock' || /proxy on http/.test(output)))
      return { port, proxyPort, stop }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  throw new Error(`the example did not start within 60 s:\n${output}`)
}
