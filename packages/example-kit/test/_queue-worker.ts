/**
 * A separate process holding a job queue on the test database (argv: url, leaseMs). Its handler of `work` reports the
 * claim, waits for the parent's "go", then completes (recording an effect) and reports whether it won. The parent
 * kills it (SIGKILL) or stalls it (SIGSTOP) in between.
 */
import { openDatabase } from '../src/database.ts'
import { JobQueue } from '../src/job-queue.ts'
import { migrations, type TestDb } from './_queue-fixtures.ts'

const [url, leaseMs] = process.argv.slice(2)
const database = await openDatabase<TestDb>({ databaseUrl: url, migrations })
const queue = new JobQueue(database, { instance: 'child', leaseMs: Number(leaseMs), pollMs: 50, log: () => {} })
queue.handle('work', async (job) => {
  process.send!({ claimed: job.ref })
  await new Promise((resolve) => process.once('message', resolve))
  const won = await job.complete((trx) =>
    trx
      .insertInto('effects')
      .values({ ref: job.ref, by: 'child' })
      .execute()
      .then(() => {}),
  )
  process.send!({ completed: job.ref, won, aborted: job.signal.aborted })
})
await queue.start()
process.send!({ ready: true })
process.on('disconnect', () => process.exit(0))
