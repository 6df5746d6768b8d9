/**
 * The TypeScript of the user docs compiles: every ```ts block of the pages listed is a complete module, type-checked
 * with the repository's compiler options (`routeless` resolved to its source) by TypeScript 5.9's compiler API.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PAGES = ['docs/sse.md']

const ts = createRequire(import.meta.url)('typescript-classic') as typeof import('typescript-classic')

/** The ```ts blocks of `page`, with the line each starts on. */
function blocks(page: string): { line: number; code: string }[] {
  const out: { line: number; code: string }[] = []
  const lines = readFileSync(path.join(ROOT, page), 'utf8').split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue
    const start = i + 1
    while (i + 1 < lines.length && lines[i + 1]!.trim() !== '```') i++
    out.push({ line: start + 1, code: lines.slice(start, i + 1).join('\n') })
    i++
  }
  return out
}

describe('the TypeScript blocks of the docs', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(path.join(ROOT, 'test', '.docs-code-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(String(d.messageText))
      },
    },
  )!

  it.each(PAGES)('%s: each block compiles as a module of its own', (page) => {
    const found = blocks(page)
    expect(found.length).toBeGreaterThan(0)
    const files = found.map((b, i) => {
      const file = path.join(dir, `${path.basename(page, '.md')}-${i}.ts`)
      writeFileSync(file, b.code)
      return { ...b, file }
    })
    const program = ts.createProgram(
      files.map((f) => f.file),
      { ...config.options, noEmit: true, noUnusedLocals: true },
    )
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const block = files.find((f) => f.file === d.file?.fileName)
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0
      const where = block ? `${page}:${block.line + at}` : (d.file?.fileName ?? '')
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
    })
    expect(problems).toEqual([])
  })
})
