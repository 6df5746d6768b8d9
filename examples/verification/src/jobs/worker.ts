/**
 * The background worker: every `pollMs` (or at once when woken) it finishes due jobs and sends due callbacks.
 * Everything it works on is in the database, so pending jobs and retries resume after a restart.
 */
import { deliver } from '../callbacks/deliver.ts'
import type { Services } from '../services.ts'
import { finishJob } from './finish-job.ts'

const JOB_LEASE_MS = 30_000

export class Worker {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private again = false
  private stopped = true
  private readonly sending = new Set<Promise<void>>()

  constructor(private readonly s: Services, private readonly log: (message: string, error?: unknown) => void = console.error) {}

  start(): void {
    this.stopped = false
    this.schedule(0)
  }

  /** Stops polling and waits for the current round and the callbacks in flight. */
  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.running
    await Promise.allSettled([...this.sending])
  }

  wake(): void {
    if (this.stopped) return
    if (this.running) this.again = true
    else this.schedule(0)
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.round(), ms)
  }

  private async round(): Promise<void> {
    if (this.stopped || this.running) return
    this.running = this.work().catch((error) => this.log('verification worker: round failed', error))
    await this.running
    this.running = undefined
    if (this.stopped) return
    const again = this.again
    this.again = false
    this.schedule(again ? 0 : this.s.config.workerPollMs)
  }

  private async work(): Promise<void> {
    const now = new Date()
    for (const id of await this.s.jobs.due(now, 50)) {
      if (this.stopped) return
      if (!(await this.s.jobs.claim(id, JOB_LEASE_MS))) continue
      const job = await this.s.jobs.get(id)
      if (job) await finishJob(this.s, job, { sendCallback: true }).catch((error) => this.log(`verification worker: job ${id} failed`, error))
    }
    for (const id of await this.s.deliveries.due(now, 50)) {
      if (this.stopped) return
      const sending = deliver(this.s, id).catch((error) => this.log(`verification worker: delivery ${id} failed`, error))
        .finally(() => this.sending.delete(sending))
      this.sending.add(sending)
    }
  }
}
