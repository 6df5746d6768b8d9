/**
 * A real redis-server for the tests, started on a free loopback port (Debian's redis-server; `.ci/run` installs it).
 * Without the binary the Redis tests are skipped loudly — except under CI=1, where that is a failure.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'

export function redisAvailable(): boolean {
  const ok = spawnSync('redis-server', ['--version']).status === 0
  if (!ok) {
    const message = '\n!!! redis-server not found: Redis tests are SKIPPED (apt-get install -y redis-server).\n'
    if (process.env.CI === '1') throw new Error(message)
    console.warn(message)
  }
  return ok
}

export async function startRedis(): Promise<{ url: string; port: number; stop: () => void }> {
  const probe = createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const port = (probe.address() as { port: number }).port
  await new Promise((r) => probe.close(r))
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d) => {
      out += d
      if (out.includes('Ready to accept connections')) resolve()
    })
    child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)))
  })
  return { url: `redis://127.0.0.1:${port}`, port, stop: () => child.kill('SIGKILL') }
}
