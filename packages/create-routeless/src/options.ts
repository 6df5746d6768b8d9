/**
 * The command line: `create-routeless [directory] [--runtime=node|bun|deno|workers] [--yes]`. What is not given is
 * asked for in a terminal; `--yes` takes the defaults instead.
 * @module
 */
import { RUNTIMES, runtimeNamed, type RuntimeName } from './runtimes.ts'

export interface Options {
  directory?: string
  runtime?: RuntimeName
  /** Take the defaults for what the flags leave out, without asking. */
  yes: boolean
  help: boolean
  version: boolean
}

/** A mistake on the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export const USAGE = `Usage: npm create routeless@latest [directory] -- [--runtime=${RUNTIMES.join('|')}] [--yes]

  directory          where to write the project (asked for, or routeless-app with --yes); its name is the package's
  --runtime, -r      ${RUNTIMES.join(', ')} (asked for, or node with --yes)
  --yes, -y          do not ask: take the defaults for what is not given
  --help, -h         this text
  --version, -v      the version of create-routeless`

/** Parses `argv` (the arguments after the command). Throws `UsageError` on an unknown option or runtime. */
export function parseOptions(argv: string[]): Options {
  const options: Options = { yes: false, help: false, version: false }
  const positional: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') {
      positional.push(...argv.slice(i + 1))
      break
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = eq < 0 ? arg : arg.slice(0, eq)
    const inline = eq < 0 ? undefined : arg.slice(eq + 1)
    const flag = (): void => {
      if (inline !== undefined) throw new UsageError(`${name} takes no value`)
    }
    switch (name) {
      case '--runtime':
      case '-r':
      case '--template':
      case '-t': {
        const value = inline ?? argv[++i]
        if (value === undefined || value === '') throw new UsageError(`${name} needs a value: ${RUNTIMES.join(', ')}`)
        const runtime = runtimeNamed(value.toLowerCase())
        if (!runtime) throw new UsageError(`Unknown runtime "${value}": expected one of ${RUNTIMES.join(', ')}`)
        options.runtime = runtime.name
        break
      }
      case '--yes':
      case '-y':
        flag()
        options.yes = true
        break
      case '--help':
      case '-h':
        flag()
        options.help = true
        break
      case '--version':
      case '-v':
        flag()
        options.version = true
        break
      default:
        throw new UsageError(`Unknown option ${name}`)
    }
  }
  if (positional.length > 1) throw new UsageError(`One directory at most, got ${positional.join(' ')}`)
  options.directory = positional[0]
  return options
}
