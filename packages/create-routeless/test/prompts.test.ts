/** The questions asked in a terminal: main() with a stdin that says it is one. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { main } from '../src/main.ts'

/** Runs main() in `cwd`, typing `lines` one by one, each once the previous question has been asked. */
async function answering(args: string[], lines: string[], cwd: string) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true })
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  let asked = 0
  stdout.on('data', (d) => {
    out += d
    const questions = out.match(/Project directory \(|Which one\? \(/g)?.length ?? 0
    while (asked < questions && asked < lines.length) stdin.write(`${lines[asked++]}\n`)
    if (asked === lines.length && questions > lines.length) stdin.end()
  })
  stderr.on('data', (d) => (err += d))
  const before = process.cwd()
  process.chdir(cwd)
  try {
    const code = await main(args, { stdin, stdout, stderr })
    return { code, out, err }
  } finally {
    process.chdir(before)
  }
}

describe('create-routeless in a terminal', () => {
  it('asks the directory and the runtime, saying why an answer cannot be used', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'create-routeless-'))
    mkdirSync(path.join(cwd, 'used'))
    writeFileSync(path.join(cwd, 'used', 'a.txt'), '')
    const r = await answering([], ['Bad Name', 'used', 'fresh', 'rust', '3'], cwd)
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    expect(r.out).toContain('Invalid project name "Bad Name"')
    expect(r.out).toContain('used is not empty (a.txt)')
    expect(r.out).toContain('"rust" is none of them: type 1-4 or a name (node, bun, deno, workers)')
    expect(r.out).toContain('Wrote fresh (deno) in fresh:')
    expect(JSON.parse(readFileSync(path.join(cwd, 'fresh', 'deno.json'), 'utf8')).tasks.test).toBe(
      'deno test --allow-all',
    )
  })

  it('takes the defaults on empty answers, and asks only what the flags leave out', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'create-routeless-'))
    const r = await answering([], ['', ''], cwd)
    expect(r.code).toBe(0)
    expect(r.out).toContain('Wrote routeless-app (node) in routeless-app:')
    const only = await answering(['--runtime=bun'], ['api'], cwd)
    expect(only.out).not.toContain('Runtime:')
    expect(only.out).toContain('Wrote api (bun) in api:')
  })

  it('stops with 130 when the input ends before the answers', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'create-routeless-'))
    const r = await answering([], [], cwd)
    expect(r.code).toBe(130)
    expect(r.err).toBe('create-routeless: cancelled\n')
  })
})
