// Hono on workerd (run by node, which builds the Worker and starts workerd: _workerd.mjs): _hono-app.mjs's app as a
// Worker (its default export, as Hono's Workers guide has it), bundled with esbuild.
import { bundle, serveWorker } from './_workerd.mjs'

await serveWorker((out) => bundle(`import { app } from './_hono-app.mjs'\nexport default app\n`, out))
