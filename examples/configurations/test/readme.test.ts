/**
 * The README's curl sessions, run as a newcomer would: the server started with the README's command (`npm start`),
 * every `$` line of its console blocks run in one bash, every output line compared, on SQLite and on PostgreSQL.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createTestDatabase, postgresAvailable } from '@routeless/example-kit/testing'
import { describe, expect, it } from 'vitest'
import { EXAMPLE, startEntry } from './entry.ts'

const README = readFileSync(path.join(EXAMPLE, 'README.md'), 'utf8')

interface Step {
  command: string
  expected: string
}

/** The `$ command` lines of every console block, each with the lines printed under it. */
function consoleSteps(markdown: string): Step[] {
  const steps: Step[] = []
  for (const [, block] of markdown.matchAll(/```console\n([\s\S]*?)```/g)) {
    for (const line of block!.split('\n').slice(0, -1)) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: '' })
      else steps[steps.length - 1]!.expected += `${line}\n`
    }
  }
  return steps
}

const MARK = '\u0001step-done\u0001'

/** Runs the steps in one bash (so functions and variables carry over) against `url`; the output of each step. */
function runSteps(steps: Step[], url: string, cwd: string): Promise<string[]> {
  const script = steps.map((s) => `${s.command.replaceAll('http://127.0.0.1:8080', url)}\nprintf '${MARK}'`).join('\n')
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script], { cwd, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error || stderr) reject(new Error(`bash failed: ${error?.message ?? ''}\n${stderr}`))
      else resolve(stdout.split(MARK).slice(0, -1))
    })
  })
}

const steps = consoleSteps(README)

/** The session is curl in bash, as a newcomer runs it; without either there is nothing to compare. */
const hasCurl = await new Promise<boolean>((resolve) =>
  execFile('bash', ['-c', 'command -v curl'], (error) => resolve(!error)),
)
if (!hasCurl)
  console.warn('\n!!! curl is not installed: the README curl sessions are NOT checked (apt-get install curl).\n')

it('has the curl session the issue asks for', () => {
  const commands = steps.map((s) => s.command).join('\n')
  for (const needle of [
    'POST /login',
    'POST /configurations/',
    '?sort=name&page=0&per_page=2',
    'PATCH /configurations/cache',
    'DELETE /configurations/web',
    'POST /logout',
  ]) {
    expect(commands).toContain(needle)
  }
  expect(steps.map((s) => s.expected.trim().split(' ').pop())).toEqual(expect.arrayContaining(['409', '209', '403']))
  expect(README).toContain(
    'PORT=8080 DATA_DIR=$(mktemp -d) USERS=alice:secret npm start --workspace examples/configurations',
  )
  expect(README).toContain(
    'DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres USERS=alice:secret npm start --workspace examples/configurations',
  )
})

const databases = [
  {
    name: 'SQLite',
    available: true,
    open: async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'configurations-readme-'))
      return { env: { DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) }
    },
  },
  {
    name: 'PostgreSQL',
    available: await postgresAvailable(),
    open: async () => {
      const { url, drop } = await createTestDatabase('configurations_readme')
      return { env: { DATABASE_URL: url }, drop }
    },
  },
]

describe.each(databases)('on $name', ({ available, open }) => {
  it.skipIf(!available || !hasCurl)(
    'prints exactly what the README shows, line by line',
    async () => {
      const { env, drop } = await open()
      const cwd = mkdtempSync(path.join(tmpdir(), 'configurations-curl-'))
      const server = await startEntry({ PORT: '0', USERS: 'alice:secret', ...env }, { npm: true })
      try {
        const outputs = await runSteps(steps, server.url, cwd)
        expect(outputs.map((output, i) => `$ ${steps[i]!.command}\n${output}`)).toEqual(
          steps.map((s) => `$ ${s.command}\n${s.expected}`),
        )
      } finally {
        await server.stop()
        rmSync(cwd, { recursive: true, force: true })
        await drop()
      }
    },
    60_000,
  )
})
