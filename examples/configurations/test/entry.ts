/** Runs the real entry as operators do, as a child process, and the add-user command. */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const EXAMPLE = fileURLToPath(new URL('..', import.meta.url))
export const ROOT = path.join(EXAMPLE, '../..')

/** Our environment without anything that would change the child's settings, plus `env`. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const {
    DATABASE_URL,
    USERS,
    USERS_FILE,
    DATA_DIR,
    PORT,
    HOST,
    INIT_CWD,
    SESSION_TTL_SECONDS,
    SECURE_COOKIES,
    ...rest
  } = process.env
  return { ...rest, ...env }
}

export interface RunningEntry {
  url: string
  output: () => string
  /** SIGTERM (to the whole process group with npm), then the exit code. */
  stop: () => Promise<number | null>
}

/**
 * Starts `node --import tsx src/main.ts` (what `npm start` runs), or `npm start --workspace examples/configurations`
 * itself with `npm: true`, and waits for its "listening on" line.
 */
export function startEntry(env: Record<string, string>, options: { npm?: boolean } = {}): Promise<RunningEntry> {
  const child: ChildProcess = options.npm
    ? spawn('npm', ['start', '--workspace', 'examples/configurations'], {
        cwd: ROOT,
        env: childEnv(env),
        detached: true,
      })
    : spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: EXAMPLE, env: childEnv(env) })
  let output = ''
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const stop = () => {
    if (options.npm) process.kill(-child.pid!, 'SIGTERM')
    else child.kill('SIGTERM')
    return exited
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop()
      reject(new Error(`no "listening on" within 20 s:\n${output}`))
    }, 20_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/\S+)/.exec(output)
      if (!match) return
      clearTimeout(timer)
      resolve({ url: match[1]!, output: () => output, stop })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before listening:\n${output}`))
    })
  })
}

export interface Finished {
  code: number | null
  output: string
}

function run(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<Finished> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, output: stdout + stderr }),
    )
    child.stdin!.end(options.input ?? '')
  })
}

/** Runs the entry expecting it to stop at start-up. */
export function failedStart(env: Record<string, string>): Promise<Finished> {
  return run(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: EXAMPLE, env: childEnv(env) })
}

/**
 * The add-user command with `input` on standard input: `node --import tsx src/add-user.ts <args>` (what the npm
 * script runs), or with `npm: true` the documented `npm run add-user --workspace examples/configurations -- <args>`.
 */
export function addUser(
  args: string[],
  env: Record<string, string>,
  input = '',
  options: { npm?: boolean } = {},
): Promise<Finished> {
  return options.npm
    ? run('npm', ['run', '--silent', 'add-user', '--workspace', 'examples/configurations', '--', ...args], {
        cwd: ROOT,
        env: childEnv(env),
        input,
      })
    : run(process.execPath, ['--import', 'tsx', 'src/add-user.ts', ...args], {
        cwd: EXAMPLE,
        env: childEnv(env),
        input,
      })
}
