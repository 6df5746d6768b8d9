#!/usr/bin/env node
/**
 * The core's floors, checked (part of `npm run lint`): the folders of packages/routeless/src stand in floors, top to
 * bottom as a request travels, and a file imports only its own folder or a floor below it (type imports count: they
 * are how a reader follows the code). Folders on one floor are siblings and import neither each other nor upward.
 * A folder the list does not name fails the check until it is placed. Every line of the core is at most 140
 * characters (the formatter wraps code, not strings and comments).
 *
 *   node scripts/check-core.mjs [src]      (default: packages/routeless/src)
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Top to bottom. A file belongs to the longest entry its folder starts with (`server/node/x.ts` → `server/node`);
 * `.` is the entry points at the top of src/.
 */
export const FLOORS = [
  ['.'], // the entry points: re-exports only
  ['cli'], // a shell over both halves: `routeless build` and the tools, and serving
  ['compiler/bundle'], // `routeless build --target=worker`: the worker entry it writes
  ['compiler/tooling'], // build-time tools reading a route table: explain, check, the typed client
  ['runtime/server/node', 'runtime/server/uws', 'runtime/server/bun', 'runtime/server/fetch'], // none imports another
  ['runtime/server/shared'],
  ['runtime/app'], // the Application: its options, controller sources, watch mode, the services it is given
  ['runtime/wrappers'], // what runs around every request (access log, telemetry, CORS, the docs page)
  ['runtime/documents'], // the documents served from a route table: OpenAPI, AsyncAPI, the docs page
  ['compiler/codegen', 'compiler/analysis'], // code written from a route table's types; types read with TypeScript
  ['runtime/handlers'], // the generated module at request time: loaded, each handler linked to its function
  ['runtime/lifecycle'], // a request's way through the core: a handler's shape, the request, its body, the answer
  ['runtime/routing'], // naming → modules → the route table → resolution
  ['runtime/guards'], // auth and rate limits, given to handlers by the route table
  ['runtime/contract'], // handler types at request time: the manifest, coercion, checks, serializers' runtime
  ['runtime/base'], // the shared vocabulary: errors, the Controller and its types, handler names, the logger
]

/**
 * The two times, the two halves of the tree. `compiler/` reads types and writes code (build time, or start-up in
 * development); `runtime/` runs it per request. A file of `runtime/` imports no file of `compiler/`, statically or by
 * type: a Worker, and a node server started from a fresh build, load the runtime only. `SEAMS` are the runtime's files
 * that may reach the compiler, by dynamic `import()` only, for development (no build, a stale one, `--watch`,
 * `checkReturns`).
 */
export const BUILD_TIME = ['compiler']
export const REQUEST_TIME = ['runtime']
export const SEAMS = ['runtime/app/build-tools.ts']

export const MAX_LINE = 140

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm

/** The problems of the tree under `src`, one message each (empty when it keeps the rules). */
export function checkCore(src, floors = FLOORS, halves = { build: BUILD_TIME, request: REQUEST_TIME, seams: SEAMS }) {
  const floorOf = new Map(floors.flatMap((names, i) => names.map((n) => [n, i])))
  const entries = [...floorOf.keys()].sort((a, b) => b.length - a.length)
  const folderOf = (rel) => {
    const dir = path.posix.dirname(rel)
    return entries.find((e) => (e === '.' ? dir === '.' : dir === e || dir.startsWith(`${e}/`)))
  }
  const within = (folder, roots) => roots.some((r) => folder === r || folder.startsWith(`${r}/`))
  const half = (folder) =>
    within(folder, halves.build) ? 'build' : within(folder, halves.request) ? 'request' : 'shell'
  const problems = []
  const unplaced = new Set()
  for (const file of sources(src)) {
    const rel = path.relative(src, file).split(path.sep).join('/')
    const text = readFileSync(file, 'utf8')
    text.split('\n').forEach((line, i) => {
      if (line.length > MAX_LINE) problems.push(`${rel}:${i + 1}: ${line.length} characters (at most ${MAX_LINE})`)
    })
    const from = folderOf(rel)
    if (from === undefined) {
      unplaced.add(path.posix.dirname(rel))
      continue
    }
    for (const m of text.matchAll(IMPORT)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[2]))
      const to = folderOf(target)
      if (to === undefined || to === from) continue // an unplaced target is reported as its own folder
      if (half(from) === 'request' && half(to) === 'build' && !(halves.seams.includes(rel) && m[0].includes('(')))
        problems.push(`${rel} imports ${target}: request time imports build time (${to}/)`)
      if (floorOf.get(to) < floorOf.get(from)) problems.push(`${rel} imports ${target}: ${to}/ stands above ${from}/`)
      else if (floorOf.get(to) === floorOf.get(from))
        problems.push(`${rel} imports ${target}: ${to}/ is a sibling of ${from}/`)
    }
  }
  for (const dir of unplaced)
    problems.push(
      `${dir}/ is on no floor: add it to FLOORS in scripts/check-core.mjs, below what imports it, above what it imports`,
    )
  return problems
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(p)
    return /\.(ts|mts|cts|js|mjs|cjs)$/.test(e.name) ? [p] : []
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)))
  const src = path.resolve(process.argv[2] ?? path.join(root, 'packages/routeless/src'))
  const problems = checkCore(src)
  for (const p of problems) console.error(p)
  if (problems.length) {
    console.error(`check-core: ${problems.length} problem(s) in ${path.relative(process.cwd(), src) || '.'}`)
    process.exit(1)
  }
  console.log(`check-core: ${path.relative(process.cwd(), src) || '.'} keeps its floors and its 140 characters`)
}
