/**
 * The speech engines' child processes (src/speech/engine-processes.ts), with real processes: a run ignores SIGTERM
 * and is ended by the server only — its caller aborting, `stop()`, or the process exiting — and how a run that ends
 * badly is told: a failure, or `EngineStopped` (the instance is going away).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { EngineProcesses } from '../src/speech/engine-processes.ts'
import { EngineStopped } from '../src/speech/speech-engine.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** `/proc/<pid>/status`, or '' once the process is gone. */
const status = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return ''
  }
}
/** Whether `pid` still runs (a zombie, dead and not yet reaped, does not). */
const alive = (pid: number) => /^State:\s*[^Z]/m.test(status(pid))
const forever = () => ({ signal: new AbortController().signal })

/** Waits until `processes` has `n` runs in progress; their pids. */
async function started(processes: EngineProcesses, n = 1): Promise<number[]> {
  for (let i = 0; i < 400 && processes.pids.length < n; i++) await sleep(5)
  expect(processes.pids).toHaveLength(n)
  // The pid is the shell's until it execs the program: wait until the shell has set SIGTERM (bit 14) aside.
  for (const pid of processes.pids) {
    for (let i = 0; i < 400 && !/^SigIgn:\s*\w*[4-7c-f]\w{3}$/m.test(status(pid)); i++) await sleep(5)
  }
  return processes.pids
}

describe('engine processes', () => {
  it('runs a program with stdin and collects its output; a failure names the program, its exit and its last words', async () => {
    const processes = new EngineProcesses()
    const { stdout } = await processes.run('tr', ['a-z', 'A-Z'], { stdin: Buffer.from('hello'), ...forever() })
    expect(stdout.toString()).toBe('HELLO')
    await expect(processes.run('sh', ['-c', 'echo broken >&2; exit 3'], forever())).rejects.toThrow(
      /^sh exited with 3: broken$/,
    )
    const missing = processes.run('no-such-speech-program', [], forever())
    await expect(missing).rejects.toThrow(/^no-such-speech-program exited with 127: .*not found/)
    await expect(missing).rejects.not.toBeInstanceOf(EngineStopped)
  })

  it('a run ignores SIGTERM and finishes its work', async () => {
    const processes = new EngineProcesses()
    const run = processes.run('sh', ['-c', 'sleep 0.4; echo finished'], forever())
    const [pid] = await started(processes)
    process.kill(pid!, 'SIGTERM')
    expect((await run).stdout.toString()).toBe('finished\n')
  })

  it('its caller aborting kills it (SIGKILL): a failure, not EngineStopped', async () => {
    const processes = new EngineProcesses()
    const abort = new AbortController()
    const run = processes.run('sleep', ['30'], { signal: abort.signal })
    const [pid] = await started(processes)
    abort.abort()
    await expect(run).rejects.toThrow()
    await expect(run).rejects.not.toBeInstanceOf(EngineStopped)
    expect(alive(pid!)).toBe(false)
  })

  it('stop() ends every run (EngineStopped), waits until they have exited, and starts no more', async () => {
    const processes = new EngineProcesses()
    const runs = Promise.allSettled([
      processes.run('sleep', ['30'], forever()),
      processes.run('sleep', ['30'], forever()),
    ])
    const pids = await started(processes, 2)
    const at = Date.now()
    await processes.stop()
    expect(Date.now() - at).toBeLessThan(5000)
    for (const pid of pids) expect(alive(pid)).toBe(false)
    for (const run of await runs) expect(run).toMatchObject({ status: 'rejected', reason: expect.any(EngineStopped) })
    await expect(processes.run('true', [], forever())).rejects.toThrow(/^true was not started: the server is stopping$/)
    await expect(processes.run('true', [], forever())).rejects.toBeInstanceOf(EngineStopped)
  })

  it('once the instance drains, a run that ends badly is EngineStopped; before, a failure', async () => {
    const processes = new EngineProcesses()
    const crash = ['-c', 'kill -SEGV $$']
    const before = processes.run('sh', crash, forever())
    await expect(before).rejects.toThrow(/^sh exited with SIGSEGV/)
    await expect(before).rejects.not.toBeInstanceOf(EngineStopped)
    processes.drain()
    expect((await processes.run('echo', ['still runs'], forever())).stdout.toString()).toBe('still runs\n')
    const during = processes.run('sh', crash, forever())
    await expect(during).rejects.toBeInstanceOf(EngineStopped)
    await expect(during).rejects.toThrow(/^sh exited with SIGSEGV/)
  })

  it('a run that dies of SIGTERM anyway (before its shell set it aside, or a program that restores it) is EngineStopped', async () => {
    const processes = new EngineProcesses()
    // node restores SIGTERM's default action at start: it dies of it as an unshielded program would.
    const run = processes.run(process.execPath, ['-e', "process.kill(process.pid, 'SIGTERM')"], forever())
    await expect(run).rejects.toBeInstanceOf(EngineStopped)
    await expect(run).rejects.toThrow(/exited with SIGTERM/)
  })

  it('no run outlives the process that started it, however it exits', () => {
    const module = fileURLToPath(new URL('../src/speech/engine-processes.ts', import.meta.url))
    const script = `
      const { EngineProcesses } = await import(${JSON.stringify(module)})
      const processes = new EngineProcesses()
      processes.run('sleep', ['30'], { signal: new AbortController().signal }).catch(() => {})
      setTimeout(() => { console.log(processes.pids.join(' ')); process.exit(0) }, 200)`
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    const pid = Number(out.trim())
    expect(pid).toBeGreaterThan(0)
    // SIGKILL was sent as the process exited: give the kernel a moment to end it (seconds on a loaded CI machine).
    for (let i = 0; i < 1000 && alive(pid); i++) execFileSync('sleep', ['0.01'])
    expect(alive(pid)).toBe(false)
  }, 90_000)
})
