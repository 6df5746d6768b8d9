// Raw workerd, hand-routed (run by node, which builds the Worker and starts workerd: _workerd.mjs): the limit on
// workerd. _fetch-raw.mjs's handler as a Worker, bundled with esbuild.
import { bundle, serveWorker } from './_workerd.mjs'

await serveWorker((out) =>
  bundle(`import { fetchRaw } from './_fetch-raw.mjs'\nexport default { fetch: fetchRaw }\n`, out),
)
