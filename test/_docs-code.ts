/**
 * The code blocks of the user documentation (README.md and docs/*.md), as a user would copy them.
 *
 * Every ```ts / ```typescript block is a complete module. Its fence's info string may add, after the language:
 * - `file=<path>`: where the block lives in a project (`file=controllers/index.ts`); other blocks of the same page
 *   may import it or serve it (`createApp('controllers')`). Without it the block is `_block-<line>.ts`.
 * - `runnable`: test/package/docs-code.test.ts runs it with node, in a project with the packed tarball installed, from
 *   its page's folder (where the page's `file=` blocks are), and it must exit 0.
 * Each page is one folder of a project, so blocks of two pages never see each other.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))

export interface Page {
  /** Relative to the repository: `README.md`, `docs/contract.md`. */
  file: string
  text: string
}

export interface Block {
  page: string
  /** 1-based line of the block's first code line in its page. */
  line: number
  lang: string
  /** Where the block is written, relative to its page's folder. */
  file: string
  runnable: boolean
  code: string
}

/** README.md and every docs/*.md. */
export function pages(root = ROOT): Page[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`)
  return ['README.md', ...docs].map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }))
}

const TS = new Set(['ts', 'typescript'])

/** The fenced blocks of a page, every language (an indented fence inside a list item included). */
export function fences(page: Page): { line: number; info: string; code: string }[] {
  const lines = page.text.split('\n')
  const out: { line: number; info: string; code: string }[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]!)
    if (!open) continue
    const [, indent, fence, info] = open
    const body: string[] = []
    let j = i + 1
    while (j < lines.length && !new RegExp(`^\\s*${fence![0]}{${fence!.length},}\\s*$`).test(lines[j]!)) {
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!)
      j++
    }
    if (j === lines.length) throw new Error(`${page.file}:${i + 1}: a code fence that never closes`)
    out.push({ line: i + 2, info: info!.trim(), code: `${body.join('\n')}\n` })
    i = j
  }
  return out
}

/** The TypeScript blocks of a page. */
export function blocksOf(page: Page): Block[] {
  const blocks: Block[] = []
  const files = new Set<string>()
  for (const fence of fences(page)) {
    const [lang = '', ...attributes] = fence.info.split(/\s+/)
    if (!TS.has(lang)) continue
    let file = `_block-${fence.line}.ts`
    let runnable = false
    for (const a of attributes) {
      if (a === 'runnable') runnable = true
      else if (a.startsWith('file=')) file = a.slice(5)
      else throw new Error(`${page.file}:${fence.line - 1}: unknown fence attribute ${JSON.stringify(a)}`)
    }
    if (!/\.(ts|mts)$/.test(file) || file.startsWith('/') || file.includes('..'))
      throw new Error(`${page.file}:${fence.line - 1}: file=${file} must be a relative .ts path`)
    if (files.has(file)) throw new Error(`${page.file}:${fence.line - 1}: two blocks are ${file}`)
    files.add(file)
    blocks.push({ page: page.file, line: fence.line, lang, file, runnable, code: fence.code })
  }
  return blocks
}

/** A page's folder in a project: `README.md` → `readme`, `docs/contract.md` → `docs-contract`. */
export function folderOf(page: string): string {
  return page.replace(/\.md$/, '').replace(/\W+/g, '-').toLowerCase()
}

/** Writes each page's blocks into its folder under `dir`. */
export function writeBlocks(dir: string, blocks: Block[]): void {
  for (const b of blocks) {
    const file = path.join(dir, folderOf(b.page), b.file)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, b.code)
  }
}

/**
 * The compiler options of the starter's tsconfig (packages/create-routeless/templates/node/tsconfig.json), which a
 * user's controllers are written under; `moduleDetection: force` only so that a block without an import is a
 * module of its own, as it would be in a project of its own.
 */
function compilerOptions(): Record<string, unknown> {
  const starter = JSON.parse(
    readFileSync(path.join(ROOT, 'packages/create-routeless/templates/node/tsconfig.json'), 'utf8'),
  ) as { compilerOptions: Record<string, unknown> }
  return { ...starter.compilerOptions, moduleDetection: 'force', pretty: false }
}

/**
 * The globals of Bun and Deno as far as the Runtimes page uses them (their own type packages are not installed
 * here): a block that calls them otherwise still fails.
 */
const RUNTIME_GLOBALS = `declare global {
  const Bun: {
    serve(options: {
      hostname?: string
      port?: number
      fetch(request: Request): Response | Promise<Response>
      websocket?: object
    }): { url: URL }
  }
  const Deno: {
    env: { get(name: string): string | undefined }
    serve(
      options: { hostname?: string; port?: number; onListen?(address: { hostname: string; port: number }): void },
      handler: (request: Request) => Response | Promise<Response>,
    ): unknown
  }
}
export {}
`

export interface Diagnostic {
  /** `README.md:42`, the page's own line. */
  where: string
  message: string
}

const exec = promisify(execFile)

/**
 * Type-checks every block in one TypeScript program (the repository's tsc), each as a module in its page's folder of
 * a project whose node_modules is the repository's: `routeless` resolves through its package.json exports to the
 * built declarations (packages/routeless/dist), as a user's import does.
 */
export async function typeCheck(blocks: Block[]): Promise<{ diagnostics: Diagnostic[]; files: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-docs-'))
  try {
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir')
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'docs', private: true, type: 'module' }))
    writeFileSync(path.join(dir, 'runtime-globals.d.ts'), RUNTIME_GLOBALS)
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: compilerOptions(), include: ['**/*.ts'], exclude: ['node_modules'] }),
    )
    writeBlocks(dir, blocks)
    const where = new Map(blocks.map((b) => [path.join(folderOf(b.page), b.file), b]))
    let output = ''
    try {
      await exec(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], {
        cwd: dir,
        maxBuffer: 16 << 20,
      })
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string }
      output = `${e.stdout ?? ''}${e.stderr ?? ''}`
      if (!output) throw error
    }
    const diagnostics: Diagnostic[] = []
    for (const line of output.split('\n')) {
      if (!line.trim()) continue
      const last = diagnostics.at(-1)
      if (/^\s/.test(line) && last) {
        last.message += `\n${line}` // the rest of the message above: tsc indents its continuation
        continue
      }
      const m = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line)
      const block = m ? where.get(path.normalize(m[1]!)) : undefined
      if (!m || !block) {
        diagnostics.push({ where: '(outside the blocks)', message: line })
        continue
      }
      diagnostics.push({ where: `${block.page}:${block.line + Number(m[2]) - 1}`, message: m[4]! })
    }
    return { diagnostics, files: blocks.length }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  let inFence = false
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence
    if (inFence) continue
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!m) continue
    const slug = m[1]!
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    out.add(n === 0 ? slug : `${slug}-${n}`)
  }
  return out
}

/** The relative links and images of a page, outside code: `[text](target)`. */
export function links(page: Page): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = []
  let inFence = false
  page.text.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence
    if (inFence) return
    const prose = line.replace(/`[^`]*`/g, '')
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:
      out.push({ line: i + 1, target })
    }
  })
  return out
}
