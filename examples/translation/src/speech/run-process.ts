/** Runs a local program with input on stdin or in a file, its output collected; killed when the signal aborts. */
import { spawn } from 'node:child_process'

export interface ProcessResult {
  stdout: Buffer
  stderr: string
}

export function runProcess(
  command: string,
  args: string[],
  options: { stdin?: Uint8Array; signal: AbortSignal; maxOutput?: number },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], signal: options.signal })
    const out: Buffer[] = []
    let size = 0
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > (options.maxOutput ?? 64 * 1024 * 1024)) child.kill('SIGKILL')
      else out.push(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 4096) err += chunk.toString()
    })
    child.on('error', reject)
    child.on('close', (code, sig) => {
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err })
      else reject(new Error(`${command} exited with ${code ?? sig}: ${err.trim().split('\n').pop() ?? ''}`))
    })
    child.stdin.on('error', () => {}) // the program may exit before reading everything
    child.stdin.end(options.stdin ?? new Uint8Array(0))
  })
}
