/**
 * create-routeless: `npm create routeless@latest [directory] -- [--runtime=…] [--yes]` writes a routeless project: a
 * typed controller, its test (through `app.request`), `routeless.config.ts`, the TypeScript and runtime configuration,
 * and scripts for dev, test and build. Exit codes: 0 written, 1 the directory cannot take it or writing failed,
 * 2 a usage mistake (an unknown option or runtime, an invalid project name), 130 cancelled.
 * @module
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Readable, Writable } from 'node:stream'
import { parseOptions, UsageError, USAGE } from './options.ts'
import { asker } from './prompt.ts'
import { directoryProblem, invalidPackageName, packageNameOf } from './project-name.ts'
import { RUNTIME, type RuntimeName } from './runtimes.ts'
import { scaffold } from './scaffold.ts'

export interface Io {
  stdin: Readable & { isTTY?: boolean }
  stdout: Writable
  stderr: Writable
}

const DEFAULT_DIRECTORY = 'routeless-app'
const DEFAULT_RUNTIME: RuntimeName = 'node'

/** This package's version: the routeless version a project depends on (the two are released together). */
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version

export async function main(argv: string[], io: Io = process): Promise<number> {
  const say = (text: string) => io.stdout.write(`${text}\n`)
  const fail = (text: string, code: number) => {
    io.stderr.write(`create-routeless: ${text}\n`)
    return code
  }
  let options: ReturnType<typeof parseOptions>
  try {
    options = parseOptions(argv)
  } catch (error) {
    if (error instanceof UsageError) return fail(`${error.message}\n\n${USAGE}`, 2)
    throw error
  }
  if (options.help || options.version) {
    say(options.help ? USAGE : VERSION)
    return 0
  }

  // Given on the command line: checked before anything is asked.
  if (options.directory !== undefined) {
    const problem = directoryProblem(options.directory)
    if (problem) return fail(problem, invalidPackageName(packageNameOf(options.directory)) ? 2 : 1)
  }
  let directory = options.directory
  let runtime = options.runtime
  const missing = directory === undefined || runtime === undefined
  if (missing && !options.yes) {
    if (!io.stdin.isTTY)
      return fail(
        'no terminal to ask in: give a directory and --runtime, or --yes for the defaults (routeless-app, node)',
        2,
      )
    const ask = asker(io.stdin, io.stdout)
    try {
      directory ??= await ask.directory(DEFAULT_DIRECTORY)
      runtime ??= await ask.runtime(DEFAULT_RUNTIME)
    } catch {
      return fail('cancelled', 130)
    } finally {
      ask.close()
    }
  }
  directory ??= DEFAULT_DIRECTORY
  runtime ??= DEFAULT_RUNTIME
  if (options.directory === undefined) {
    const problem = directoryProblem(directory)
    if (problem) return fail(problem, 1)
  }

  const name = packageNameOf(directory)
  let files: string[]
  try {
    files = scaffold({ directory, name, runtime: RUNTIME[runtime], routeless: `^${VERSION}` })
  } catch (error) {
    return fail(`could not write ${directory}: ${(error as Error).message}`, 1)
  }
  const next = RUNTIME[runtime].next
  const relative = path.relative(process.cwd(), path.resolve(directory)) || '.'
  say(`Wrote ${name} (${runtime}) in ${relative}:`)
  for (const file of files) say(`  ${file}`)
  say('')
  say('Next:')
  if (relative !== '.') say(`  cd ${relative.includes(' ') ? JSON.stringify(relative) : relative}`)
  for (const command of [next.install, next.test, next.dev]) say(`  ${command}`)
  return 0
}
