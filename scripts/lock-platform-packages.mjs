#!/usr/bin/env node
/**
 * The npm registry this project is built against serves only the linux-x64 builds of packages that ship one
 * package per platform (rollup's @rollup/rollup-<platform>), so `npm install` leaves the other platforms out of
 * package-lock.json and `npm ci` then refuses the lock as out of sync. This adds the missing entries with their
 * `os`/`cpu`/`libc`, exactly as a lock made against the full registry has them; `npm ci` skips them on this
 * platform without fetching anything. Run after every `npm install` that changes the lock.
 */
import { readFileSync, writeFileSync } from 'node:fs'

const file = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(file, 'utf8'))
const packages = lock.packages

const CPU = {
  arm: 'arm',
  'arm-eabi': 'arm',
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
}

function platformOf(name) {
  // rollup-<os>-<cpu>[-<abi>]
  const m = /^@rollup\/rollup-([a-z0-9]+)-([a-z0-9]+)(?:-([a-z0-9]+))?$/.exec(name)
  if (!m) return undefined
  const [, os, cpu, abi] = m
  const entry = { os: [os], cpu: [CPU[cpu === 'arm' && abi === 'eabi' ? 'arm-eabi' : cpu] ?? cpu] }
  if (abi === 'musl' || abi === 'musleabihf') entry.libc = ['musl']
  if (abi === 'gnu' || abi === 'gnueabihf') entry.libc = ['glibc']
  return entry
}

let added = 0
for (const [path, meta] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`
    if (packages[key] || packages[`${path}/node_modules/${dep}`]) continue
    const platform = platformOf(dep)
    if (!platform) continue
    packages[key] = { version, ...platform, dev: meta.dev, license: meta.license, optional: true }
    if (!meta.dev) delete packages[key].dev
    added++
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
)
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`lock-platform-packages: added ${added} platform entries`)
