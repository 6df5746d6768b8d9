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
