/**
 * Test helper: nginx (Debian's package) in front of several instances, the examples' scale-out setup, started by the
 * test on a loopback port with its own temporary folder for its configuration, pid file, logs and temporary files —
 * run as `nobody` when the test runs as root, so nothing of it is root's.
 *
 * Open-source nginx has passive health checks only (a failed connection), not NGINX Plus's `health_check
 * uri=/readyz`. What a Kubernetes endpoints controller or consul-template does for it is done here by `ReadinessGate`:
 * it polls each instance's `/readyz` and, when an instance's readiness changes, rewrites the upstream (`down` for the
 * instances not ready) and reloads nginx (SIGHUP: new workers take the new upstream, the old ones finish their
 * requests).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p))

/** A free loopback port. */
export async function freePort(): Promise<number> {
  const srv = createServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address() as { port: number }
  await new Promise((resolve) => srv.close(resolve))
  return port
}

/** The uid and gid of `nobody` (65534 on Debian), for running as someone other than root. */
function nobody(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('nobody:'))
  const [, , uid, gid] = line?.split(':') ?? []
  return { uid: Number(uid ?? 65534), gid: Number(gid ?? 65534) }
}

export interface Nginx {
  url: string
  /** Sets which upstreams are in rotation and reloads. */
  route(up: readonly boolean[]): Promise<void>
  /** The error log so far (for failure messages). */
  log(): string
  stop(): Promise<void>
}

/** Starts nginx on a free loopback port, proxying to `upstreams` (`127.0.0.1:port`), all of them in rotation. */
export async function startNginx(upstreams: readonly string[]): Promise<Nginx> {
  if (!NGINX) throw new Error('nginx is not installed (apt-get install nginx; .ci/run does)')
  const dir = mkdtempSync(path.join(tmpdir(), 'nginx-'))
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, sub))
  const root = process.getuid?.() === 0
  const user = root ? nobody() : undefined
  if (user)
    for (const p of ['', 'body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) chownSync(path.join(dir, p), user.uid, user.gid)
  const port = await freePort()
  const conf = path.join(dir, 'nginx.conf')
  const write = (up: readonly boolean[]) => {
    writeFileSync(conf, config(dir, port, upstreams, up))
    if (user) chownSync(conf, user.uid, user.gid)
  }
  write(upstreams.map(() => true))
  const args = ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log')]
  // setpriv execs nginx itself (the child's pid is nginx's master: SIGHUP reaches it).
  const child: ChildProcess = user
    ? spawn('setpriv', [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', NGINX, ...args], {
        stdio: 'ignore',
      })
    : spawn(NGINX, args, { stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const log = () => (existsSync(path.join(dir, 'error.log')) ? readFileSync(path.join(dir, 'error.log'), 'utf8') : '')
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${log()}`)
    try {
      await fetch(`${url}/healthz`)
      break
    } catch {
      if (i > 100) throw new Error(`nginx did not answer on ${url}: ${log()}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  return {
    url,
    log,
    async route(up) {
      write(up)
      child.kill('SIGHUP')
      // Give the master a moment to start the new workers (the old ones finish what they hold).
      await new Promise((r) => setTimeout(r, 150))
    },
    async stop() {
      child.kill('SIGQUIT')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

function config(dir: string, port: number, upstreams: readonly string[], up: readonly boolean[]): string {
  const servers = upstreams.map((u, i) => `    server ${u}${up[i] ? '' : ' down'};`).join('\n')
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream app {
${servers}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://app;
      # HTTP/1.1 with kept-alive upstream connections (uWebSockets.js answers nothing else: README, "Servers").
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      # Passive checks only: a connection refused is tried on the next instance (never a request's answer).
      proxy_next_upstream error timeout;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`
}

/**
 * The load balancer's health check: polls `/readyz` of each instance every `intervalMs`; an instance is in rotation
 * while it answers 200. On a change, `onChange` gets the new rotation (nginx's `route`).
 */
export class ReadinessGate {
  private timer: NodeJS.Timeout | undefined
  private current: boolean[]
  private busy = false

  constructor(
    private readonly instances: readonly string[],
    private readonly onChange: (up: boolean[]) => Promise<void>,
    private readonly intervalMs = 100,
  ) {
    this.current = instances.map(() => true)
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.intervalMs)
  }

  stop(): void {
    clearInterval(this.timer)
  }

  private async poll(): Promise<void> {
    if (this.busy) return
    this.busy = true
    try {
      const up = await Promise.all(
        this.instances.map(async (url) => {
          try {
            const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) })
            await res.arrayBuffer()
            return res.status === 200
          } catch {
            return false
          }
        }),
      )
      if (up.some((u, i) => u !== this.current[i])) {
        this.current = up
        await this.onChange(up)
      }
    } finally {
      this.busy = false
    }
  }
}
