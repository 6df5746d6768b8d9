/**
 * The core's shape, checked: no import circle among the package's sources (type imports count: they are how a reader
 * follows the code), no import of a file that is gone, thin entry points. The floors (every folder importing only
 * downward, no server adapter importing another) are `scripts/check-core.mjs`'s, run by `npm run lint`.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = fileURLToPath(new URL('../../packages/routeless/src/', import.meta.url))

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  )
}

/** Every relative import of `file`, static or dynamic, as a path relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+\.ts)'/g))
    out.push(path.relative(SRC, path.resolve(path.dirname(file), m[1]!)))
  return out
}

const graph = new Map(sources().map((f) => [path.relative(SRC, f), importsOf(f)]))
const staticGraph = new Map(
  sources().map((f) => [
    path.relative(SRC, f),
    [...readFileSync(f, 'utf8').matchAll(/from\s*'(\.{1,2}\/[^']+\.ts)'/g)].map((m) =>
      path.relative(SRC, path.resolve(path.dirname(f), m[1]!)),
    ),
  ]),
)

function findCycle(g: Map<string, string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (n: string): string[] | undefined => {
    if (state.get(n) === 'done') return undefined
    if (state.get(n) === 'open') return [...stack.slice(stack.indexOf(n)), n]
    state.set(n, 'open')
    stack.push(n)
    for (const m of g.get(n) ?? []) {
      const c = visit(m)
      if (c) return c
    }
    stack.pop()
    state.set(n, 'done')
    return undefined
  }
  for (const n of g.keys()) {
    const c = visit(n)
    if (c) return c
  }
  return undefined
}

describe('The package layout', () => {
  it('has no import circle among its modules', () => {
    expect(findCycle(staticGraph)).toBeUndefined()
  })

  it('imports every module it names (no import points at a file that is gone)', () => {
    for (const [file, deps] of graph) for (const d of deps) expect(graph.has(d), `${file} imports ${d}`).toBe(true)
  })

  it('keeps its entry points thin: only index, node, uws, fetch, worker, cli and bin at the top, and the public list both index and worker re-export', () => {
    const top = readdirSync(SRC).filter((f) => f.endsWith('.ts'))
    expect(top.sort()).toEqual([
      'bin.ts',
      'cli.ts',
      'fetch.ts',
      'index.ts',
      'node.ts',
      'public.ts',
      'uws.ts',
      'worker.ts',
    ])
  })
})
