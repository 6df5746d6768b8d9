/**
 * `routeless check` where no handler types can be read (typescript missing, no signature manifest): only handlers
 * whose parameters would go unchecked are a problem, each named; a tree whose handlers take no parameters is clean.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from 'routeless'
import { checkTable } from '../../packages/routeless/src/compiler/tooling/check.ts'

const dirs: string[] = []
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A controller tree in a temp directory, loaded with no types to read (manifest mode, no manifest). */
async function tree(source: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-check-'))
  dirs.push(dir)
  writeFileSync(path.join(dir, 'index.ts'), source)
  const app = await createApp(dir, { cwd: dir, types: 'manifest', logger: { error: () => {}, warn: () => {} } })
  return { app, dir }
}

describe('check without handler types', () => {
  it('finds no problem in a tree whose handlers take no parameters', async () => {
    const { app } = await tree(
      'export class Default { GET() { return "hi" } }\nexport class Health { GET() { return "ok" } POST() { return this.body } }\n',
    )
    expect(app.table.warnings.join('\n')).toMatch(/signature manifest does not describe/)
    expect(checkTable(app.table)).toEqual([])
  })

  it('names the handlers whose parameters go unchecked, and only those', async () => {
    const { app } = await tree(
      [
        'export class Default { GET() { return "hi" } }',
        'export class Users { GET(id: string) { return id } POST({ name }: { name: string }) { return name } }',
        'export class Checked { static params = { GET: { args: [{ "~standard": { version: 1, vendor: "x", validate: (v: unknown) => ({ value: v }) } }] } }; GET(id: string) { return id } }',
      ].join('\n'),
    )
    const problems = checkTable(app.table)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(/the parameters of 2 handlers are bound by name, unchecked/)
    expect(problems[0]).toMatch(/Users\.GET/)
    expect(problems[0]).toMatch(/Users\.POST/)
    expect(problems[0]).not.toMatch(/Default\.GET|Checked\.GET/)
  })
})
