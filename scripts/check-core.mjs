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
  ['bundle'], // `routeless build --target=worker`: the worker entry it writes
  ['tooling'], // build-time tools reading a route table: explain, check, the typed client
  ['server/node', 'server/uws', 'server/bun', 'server/fetch'], // the servers, none importing another
  ['server/shared'],
  ['app'], // the Application: its options, controller sources, watch mode, the services it is given
  ['wrappers'], // what runs around every request (access log, telemetry, CORS, the docs page)
  ['documents'], // the documents served from a route table: OpenAPI, AsyncAPI, the docs page
  ['codegen', 'analysis'], // build time: code written from a route table's types; the types read with TypeScript
  ['handlers'], // the generated module at request time: its loading, each handler's function, the helpers it calls
  ['lifecycle'], // a request's way through the core: the pipeline, the request, its body, the answer
  ['routing'], // naming → modules → the route table → resolution
  ['guards'], // auth and rate limits, given to handlers by the route table
  ['contract'], // handler types at request time: the manifest, coercion, checks, serializers' runtime
  ['base'], // the shared vocabulary: errors, the Controller and its types, handler names, the logger
]

/**
 * The two times. Build time reads types and writes code; request time runs it. A file of the request half (every
 * floor below `cli` not named here) imports no file of the build half, statically or by type: a Worker, and a node
 * server started from a build, load the request half only. `SEAMS` are the request-half files that may reach the
 * build half, by dynamic `import()` only, for development (no build, a stale one, `--watch`, `checkReturns`).
 */
export const BUILD_TIME = ['bundle', 'tooling', 'codegen', 'analysis']
export const SEAMS = ['runtime/app/build-tools.ts']

export const MAX_LINE = 140

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm

/** The problems of the tree under `src`, one message each (empty when it keeps the rules). */
export function checkCore(src, floors = FLOORS, halves = { build: BUILD_TIME, seams: SEAMS }) {
  const floorOf = new Map(floors.flatMap((names, i) => names.map((n) => [n, i])))
  const entries = [...floorOf.keys()].sort((a, b) => b.length - a.length)
  const folderOf = (rel) => {
    const dir = path.posix.dirname(rel)
    return entries.find((e) => (e === '.' ? dir === '.' : dir === e || dir.startsWith(`${e}/`)))
  }
  const half = (folder) =>
    halves.build.some((b) => folder === b || folder.startsWith(`${b}/`))
      ? 'build'
      : floorOf.get(folder) > floorOf.get('cli')
        ? 'request'
        : 'shell'
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
