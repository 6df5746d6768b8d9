/**
 * Test helpers: a PostgreSQL and a Redis of the test's own, on free loopback ports, that the test may stop and start
 * (fault tests restart them) — never the shared cluster other tests use (TEST_PG_URL). PostgreSQL is Debian's
 * (`initdb` and `pg_ctl` from /usr/lib/postgresql/<version>/bin) in a temporary folder; when the test runs as root
 * the folder belongs to the `postgres` user and the server runs as it (PostgreSQL refuses to run as root).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './nginx.ts'

const run = promisify(execFile)

/** The newest installed PostgreSQL's programs, or undefined. */
export const PG_BIN = (() => {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const newest = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b))
    .pop()
  return newest && path.join(root, newest, 'bin')
})()

/** The uid and gid of a system user, from /etc/passwd. */
function userIds(name: string): { uid: number; gid: number } | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`))
  if (!line) return undefined
  const [, , uid, gid] = line.split(':')
  return { uid: Number(uid), gid: Number(gid) }
}

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  url: string
  port: number
  /** Fast shutdown (connections are closed, as on a restart). */
  stop(): Promise<void>
  start(): Promise<void>
  /** Stops it and removes its folder. */
  destroy(): Promise<void>
}

/** Creates and starts a PostgreSQL cluster in a temporary folder. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (!PG_BIN) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/<version>/bin: .ci/run installs it)')
  const dir = mkdtempSync(path.join(tmpdir(), 'private-pg-'))
  const data = path.join(dir, 'data')
  const owner = process.getuid?.() === 0 ? userIds('postgres') : undefined
  if (process.getuid?.() === 0 && !owner) throw new Error('running as root, and there is no postgres user to run as')
  if (owner) chownSync(dir, owner.uid, owner.gid)
  const as = (program: string, args: string[]) =>
    owner
      ? run(
          'setpriv',
          [`--reuid=${owner.uid}`, `--regid=${owner.gid}`, '--clear-groups', path.join(PG_BIN!, program), ...args],
          {
            cwd: dir,
          },
        )
      : run(path.join(PG_BIN!, program), args, { cwd: dir })
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'])
  const port = await freePort()
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=100`
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '30', 'start'])
  }
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop'])
  }
  await start()
  let running = true
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: async () => {
      await start()
      running = true
    },
    stop: async () => {
      await stop()
      running = false
    },
    destroy: async () => {
      if (running) await stop().catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface PrivateRedis {
  url: string
  port: number
  stop(): Promise<void>
  /** Starts it again on the same port (empty: nothing is saved). */
  start(): Promise<void>
  destroy(): Promise<void>
}

/** Starts a redis-server of the test's own (no persistence). */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort()
  let child: ChildProcess | undefined
  const start = async () => {
    const c = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    child = c
    await new Promise<void>((resolve, reject) => {
      let out = ''
      c.stdout!.on('data', (d) => {
        out += d
        if (out.includes('Ready to accept connections')) resolve()
      })
      c.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)))
    })
    c.stdout!.resume()
    c.stderr!.resume()
  }
  const stop = async () => {
    const c = child
    child = undefined
    if (!c || c.exitCode !== null) return
    const exited = new Promise((resolve) => c.once('exit', resolve))
    c.kill('SIGTERM')
    await exited
  }
  await start()
  return { url: `redis://127.0.0.1:${port}`, port, start, stop, destroy: stop }
}
