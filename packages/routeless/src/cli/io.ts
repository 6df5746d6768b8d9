import { RoutelessError } from '../runtime/base/errors.ts'

/** The signal that stops a server: SIGTERM (a supervisor; the drain delay applies) or SIGINT (Ctrl-C; no delay). */
export type StopSignal = 'SIGINT' | 'SIGTERM'

/** Where the command line writes, and what tells a server to stop (tests give their own). */
export interface CliIO {
  stdout: (line: string) => void
  stderr: (line: string) => void
  /**
   * Resolves when the server should stop (default: on SIGINT or SIGTERM, with its name). A stop that names no signal
   * is taken as SIGTERM: the drain delay applies.
   */
  stopSignal?: Promise<StopSignal | undefined>
}

export const defaultIO: CliIO = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
}

/** A failure as the command line reports it: a `RoutelessError` with its code, another error by its message or stack. */
export function reportError(io: CliIO, error: unknown, detail: 'message' | 'stack' = 'message'): void {
  if (error instanceof RoutelessError) io.stderr(`routeless: ${error.message} [${error.code}]`)
  else io.stderr(`routeless: ${detail === 'stack' ? ((error as Error).stack ?? error) : (error as Error).message}`)
}
