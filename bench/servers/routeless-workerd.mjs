// routeless on workerd (run by node, which builds the Worker and starts workerd: _workerd.mjs): the controllers built
// as a user builds them for Workers, `routeless build --target=worker` with the built CLI.
import path from 'node:path'
import { ROOT, run, serveWorker } from './_workerd.mjs'

const CLI = path.join(ROOT, 'packages', 'routeless', 'dist', 'bin.js')

await serveWorker((out) =>
  run(process.execPath, [CLI, 'build', '--target=worker', '--prefix=bench/controllers', `--out=${out}`]),
)
