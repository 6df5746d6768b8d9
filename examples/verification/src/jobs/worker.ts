/**
 * The background work, on example-kit's job queue (shared by every instance on the database): `decision` jobs decide
 * an async verification job when it is due, `callback` jobs make one delivery attempt each. A job is finished by the
 * worker holding it; one that lost its lease (stalled, another instance took over) has its result dropped.
 */
import { JobQueue, type Database as KitDatabase } from '@routeless/example-kit'
import { deliver } from '../callbacks/deliver.ts'
import type { Config } from '../config.ts'
import type { Services } from '../services.ts'
import type { Database } from '../storage/schema.ts'
import { finishJob } from './finish-job.ts'

export const DECISION = 'decision'
export const CALLBACK = 'callback'

/** The queue of this instance (stores enqueue on it; the worker registers the handlers). */
export function createQueue(
  database: KitDatabase<Database>,
  config: Config,
  log: (message: string, error?: unknown) => void = console.error,
): JobQueue {
  return new JobQueue(database, {
    leaseMs: config.jobLeaseMs,
    pollMs: config.workerPollMs,
    concurrency: 8,
    backoffMs: config.callbackBackoffMs,
    log,
  })
}

export class Worker {
  constructor(
    readonly queue: JobQueue,
    s: Services,
  ) {
    queue.handle(
      DECISION,
      async (job) => {
        const found = await s.jobs.get(job.ref)
        if (found?.status !== 'processing') return void (await job.complete()) // decided inline (sync) already
        await finishJob(s, found, { sendCallback: true, commit: job.complete })
      },
      { maxAttempts: 5 },
    )
    // Each delivery counts its own attempts (CALLBACK_ATTEMPTS); the queue's limit only stops a crash loop.
    queue.handle(CALLBACK, (job) => deliver(s, job), { maxAttempts: s.config.callbackAttempts + 5 })
  }

  /** Starts claiming (LISTEN on PostgreSQL). */
  start(): Promise<void> {
    return this.queue.start()
  }

  /** Stops claiming and waits for the jobs and callbacks in flight. */
  stop(): Promise<void> {
    return this.queue.stop()
  }

  wake(): void {
    this.queue.wake()
  }
}
