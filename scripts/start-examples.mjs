#!/usr/bin/env node
/**
 * `npm start`: serves every example API on its own port with an embedded SQLite database under .data/<example>,
 * seeding demo credentials unless the environment gives its own. Ctrl-C stops them all.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)))
const env = process.env

const examples = [
  { name: 'configurations', port: 8080, env: { USERS: env.USERS ?? 'demo:demo-password' } },
  {
    name: 'translation',
    port: 8081,
    env: { ADMIN_KEY: env.ADMIN_KEY ?? 'demo-admin-key', API_KEY: env.API_KEY ?? 'demo-api-key' },
  },
  {
    name: 'verification',
    port: 8082,
    env: { PARTNER_ID: env.PARTNER_ID ?? '1000', API_KEY: env.VERIFICATION_API_KEY ?? 'demo-partner-key' },
  },
]

const children = []
for (const ex of examples) {
  const dir = path.join(root, 'examples', ex.name)
  if (!existsSync(path.join(dir, 'src', 'main.ts'))) continue
  const childEnv = { ...env, ...ex.env, PORT: String(ex.port), DATA_DIR: path.join(root, '.data', ex.name) }
  delete childEnv.DATABASE_URL // embedded defaults; run an example's own `npm start` for PostgreSQL
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: dir,
    env: childEnv,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  console.log(
    `${ex.name}: http://127.0.0.1:${ex.port}  (${Object.entries(ex.env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')})`,
  )
  children.push(child)
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${ex.name} exited (${signal ?? code}); stopping the others`)
      stop(code ?? 1)
    }
  })
}

let stopping = false
function stop(code = 0) {
  stopping = true
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM')
  process.exitCode = code
}
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))
