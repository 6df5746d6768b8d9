/**
 * The user documentation's code and links: every ```ts block of README.md and docs/*.md type-checks as a complete
 * module against routeless's published declarations (one tsc program for all of them: test/_docs-code.ts), and every
 * relative link names a file, and an anchor that file has. The blocks marked `runnable` are run against the packed
 * tarball by test/package/docs-code.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { anchors, blocksOf, type Diagnostic, fences, links, pages, ROOT, typeCheck } from '../_docs-code.ts'

/**
 * Guide pages other branches write at the same time, linked from this branch before they land. A name stays here
 * only while its file is missing: the test fails once the page exists, so the entry is removed at the merge.
 */
const PENDING = new Set<string>([])

/** A page with a block that must not type-check: the check is not vacuous. */
const BAD = {
  file: 'docs/deliberately-bad.md',
  text: [
    '# Bad',
    '',
    '```ts file=controllers/index.ts',
    "import { createApp } from 'routeless'",
    '',
    "const app = await createApp('controllers')",
    "const status: string = (await app.request('/')).status",
    '```',
    '',
  ].join('\n'),
}

describe('the code blocks of README.md and docs/', () => {
  let result: { diagnostics: Diagnostic[]; files: number }
  const all = pages()
  const blocks = all.flatMap(blocksOf)

  beforeAll(async () => {
    if (!existsSync(path.join(ROOT, 'packages/routeless/dist/index.d.ts')))
      throw new Error('packages/routeless/dist has no declarations: run `npm run build` first')
    result = await typeCheck([...blocks, ...blocksOf(BAD)])
  }, 120_000)

  it('finds the blocks of every page', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(15)
    for (const page of ['README.md', 'docs/controllers.md', 'docs/contract.md', 'docs/runtimes.md'])
      expect(blocks.some((b) => b.page === page)).toBe(true)
    expect(blocks.some((b) => b.runnable)).toBe(true)
  })

  it('type-checks each one as a complete module', () => {
    const real = result.diagnostics.filter((d) => !d.where.startsWith(BAD.file))
    expect(real.map((d) => `${d.where}: ${d.message}`)).toEqual([])
  })

  it('fails a block that does not type-check, at its own line', () => {
    const bad = result.diagnostics.filter((d) => d.where.startsWith(BAD.file))
    expect(bad).toEqual([
      {
        where: `${BAD.file}:7`,
        message: expect.stringMatching(/TS2322: Type 'number' is not assignable to type 'string'/),
      },
    ])
  })

  it('writes no JavaScript or untagged code: TypeScript is type-checked, the rest is text, console, sh …', () => {
    const allowed = /^(ts|typescript|text|console|sh|json|toml|yaml|ini|diff|http)(\s|$)/
    const wrong = all.flatMap((page) =>
      fences(page)
        .filter((f) => !allowed.test(f.info))
        .map((f) => `${page.file}:${f.line - 1}: \`\`\`${f.info}`),
    )
    expect(wrong).toEqual([])
  })
})

describe('the links of README.md and docs/', () => {
  it('resolve to files, and to anchors those files have', () => {
    const broken: string[] = []
    for (const page of pages()) {
      for (const { line, target } of links(page)) {
        const [file = '', anchor] = target.split('#')
        const resolved = file ? path.normalize(path.join(path.dirname(page.file), file)) : page.file
        const absolute = path.join(ROOT, resolved)
        if (!existsSync(absolute)) {
          if (!PENDING.has(resolved)) broken.push(`${page.file}:${line}: ${target} (no such file)`)
          continue
        }
        if (anchor && resolved.endsWith('.md') && !anchors(readFileSync(absolute, 'utf8')).has(anchor))
          broken.push(`${page.file}:${line}: ${target} (no such heading)`)
      }
    }
    expect(broken).toEqual([])
  })

  it('lists as pending only pages that do not exist yet', () => {
    expect([...PENDING].filter((p) => existsSync(path.join(ROOT, p)))).toEqual([])
  })

  it('computes anchors as GitHub does', () => {
    expect([
      ...anchors('# The signature is the contract\n## `routeless/fetch` on node\n## Ten lines\n## Ten lines'),
    ]).toEqual(['the-signature-is-the-contract', 'routelessfetch-on-node', 'ten-lines', 'ten-lines-1'])
  })
})
