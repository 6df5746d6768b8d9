/**
 * The starter's Worker, built as a user builds it (`npm run build` of the Workers project runs `routeless build
 * --target=worker --out=dist/worker.js`), measured: its size unminified, the `node:` modules it imports, and the
 * bytes of the bundle each source file accounts for — the bundle is built once more with a source map, which esbuild
 * composes with `dist/worker.js.map` (routeless's `routeless/worker` entry as built), so that each output byte is
 * attributed to a file of `packages/routeless/src/` (or the entry, or a package), not to `dist/worker.js` as a whole.
 * Needs routeless built (`npm run build -w routeless`: `routeless/worker` is read from its dist, as a user's is).
 *
 *   node --import tsx bench/worker-size.ts [--top=40]
 * @module
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildWorker } from '../packages/routeless/src/compiler/bundle/worker.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = path.join(ROOT, 'packages/routeless/bin/routeless.js')
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 40)

// The starter, inside the repository so that `routeless` resolves as in a user's project (to its dist).
const dir = path.join(ROOT, '.data', 'worker-size')
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })
const templates = path.join(ROOT, 'packages/create-routeless/templates')
cpSync(path.join(templates, 'shared/controllers'), path.join(dir, 'controllers'), { recursive: true })
cpSync(path.join(templates, 'shared/routeless.config.ts'), path.join(dir, 'routeless.config.ts'))
cpSync(path.join(templates, 'workers/tsconfig.json'), path.join(dir, 'tsconfig.json'))
writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n')

const built = spawnSync(process.execPath, [BIN, 'build', '--target=worker', '--out=dist/worker.js'], {
  cwd: dir,
  encoding: 'utf8',
})
if (built.status !== 0) throw new Error(`routeless build --target=worker failed: ${built.stderr}`)
process.stdout.write(built.stdout)
const code = readFileSync(path.join(dir, 'dist/worker.js'), 'utf8')
const imports = [...code.matchAll(/^import .* from "([^"]+)"/gm)].map((m) => m[1])
console.log(
  `dist/worker.js: ${(code.length / 1024).toFixed(1)} KiB unminified; imports: ${imports.join(', ') || 'none'}`,
)

// The same build with a source map, attributed per source file (the config loaded as the CLI loads it).
const config = path.join(dir, 'routeless.config.ts')
await buildWorker({
  prefixes: ['controllers'],
  out: 'dist/analysis.js',
  cwd: dir,
  config,
  settings: (await import(config)).default,
  sourcemap: true,
})
const analysed = readFileSync(path.join(dir, 'dist/analysis.js'), 'utf8')
const map = JSON.parse(readFileSync(path.join(dir, 'dist/analysis.js.map'), 'utf8')) as {
  sources: string[]
  mappings: string
}
const bytes = attribute(analysed, map)
const rows = [...bytes].sort((a, b) => b[1] - a[1])
const name = (source: string) =>
  source === '(unmapped)' ? source : source.replace(/^(?:\.\.\/)+/, '').replace(/^.*packages\/routeless\//, '')
for (const [source, n] of rows.slice(0, top)) console.log(`${(n / 1024).toFixed(1).padStart(7)} KiB  ${name(source)}`)
if (rows.length > top) {
  const rest = rows.slice(top).reduce((sum, [, n]) => sum + n, 0)
  console.log(`${(rest / 1024).toFixed(1).padStart(7)} KiB  (${rows.length - top} more files)`)
}

/**
 * Bytes of `code` per source of its map: each mapped segment runs to the next segment on its line (or the line's
 * end, newline included), a line's indentation counts with its first segment, and a line with no segment (the rest
 * of a multi-line string) with the segment before it; what is left is `(unmapped)` (esbuild's `// file` comments).
 */
function attribute(code: string, { sources, mappings }: { sources: string[]; mappings: string }): Map<string, number> {
  const out = new Map<string, number>()
  const add = (key: string, n: number) => out.set(key, (out.get(key) ?? 0) + n)
  const lines = code.split('\n')
  const mapped = mappings.split(';')
  let source = 0
  let last: string | undefined
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const segments = (mapped[i] ?? '')
      .split(',')
      .filter(Boolean)
      .map((s) => decodeVlq(s))
    if (segments.length === 0) {
      add(line.startsWith('// ') || line.trim() === '' ? '(unmapped)' : (last ?? '(unmapped)'), line.length + 1)
      continue
    }
    let column = 0
    let start = 0
    let current: string | undefined
    for (const fields of segments) {
      column += fields[0]!
      if (fields.length > 1) source += fields[1]!
      const next = fields.length > 1 ? sources[source]! : undefined
      add(current ?? next ?? '(unmapped)', column - start)
      start = column
      current = next
    }
    add(current ?? '(unmapped)', line.length + 1 - start)
    last = current ?? last
  }
  return out
}

/** One segment of a source map's `mappings`: its fields, relative as written. */
function decodeVlq(segment: string): number[] {
  const fields: number[] = []
  let value = 0
  let shift = 0
  for (const char of segment) {
    const digit = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.indexOf(char)
    value += (digit & 31) << shift
    if (digit & 32) shift += 5
    else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
      value = 0
      shift = 0
    }
  }
  return fields
}
