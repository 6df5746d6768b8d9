/**
 * `routeless check` in a fresh project without typescript (as `npm i routeless` alone leaves it): a tree whose
 * handlers take no parameters is clean (exit 0); a handler whose parameters would go unchecked is named (exit 1).
 */
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installProject, type Project, run, write } from './_project.ts'

let project: Project

beforeAll(async () => {
  project = await installProject({ type: 'module' }, [])
}, 300_000)

afterAll(() => project?.remove())

describe('routeless check without typescript', { timeout: 120_000 }, () => {
  it('finds no problem when no handler takes a parameter', async () => {
    write(project.dir, {
      'bare/controllers/index.ts': 'export class Default {\n  GET() {\n    return "hi"\n  }\n}\n',
      'bare/controllers/health.ts': 'export class Default {\n  GET() {\n    return "ok"\n  }\n}\n',
    })
    const r = await run(project.bin, ['check'], { cwd: path.join(project.dir, 'bare') })
    expect(r.stdout).toContain('routeless: 2 handlers, no problems')
    expect(r.code).toBe(0)
  })

  it('names the handler whose parameters go unchecked, and only it', async () => {
    write(project.dir, {
      'params/controllers/index.ts': 'export class Default {\n  GET() {\n    return "hi"\n  }\n}\n',
      'params/controllers/users.ts': 'export class Default {\n  GET(id: number) {\n    return id\n  }\n}\n',
    })
    const r = await run(project.bin, ['check'], { cwd: path.join(project.dir, 'params') })
    expect(r.stdout).toMatch(/typescript is not installed.*the parameters of 1 handler are bound by name, unchecked/)
    expect(r.stdout).toContain('users.ts: Default.GET')
    expect(r.stdout).not.toContain('index.ts: Default.GET')
    expect(r.code).toBe(1)
  })
})
