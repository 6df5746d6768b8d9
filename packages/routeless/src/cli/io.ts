/** Where the command line writes, and what tells a server to stop (tests give their own). */
export interface CliIO {
  stdout: (line: string) => void
  stderr: (line: string) => void
  /** Resolves when the server should stop (default: SIGINT or SIGTERM). */
  stopSignal?: Promise<void>
}

export const defaultIO: CliIO = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
}
