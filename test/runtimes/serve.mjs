// Serves a fixture tree on Bun (Bun.serve) or Deno (Deno.serve) with the built routeless, as a user's server script
// would: `createApp(prefixes, options)` and the runtime's own server on a random loopback port, whose URL it prints.
// Its argument is a JSON file: { prefixes, options, manifest, cwd } (test/_runtimes.ts writes it).
import { readFileSync } from 'node:fs'
import { createApp } from 'routeless'

const spec = JSON.parse(readFileSync(process.argv.at(-1), 'utf8'))
const app = await createApp(spec.prefixes, {
  ...spec.options,
  cwd: spec.cwd,
  manifest: spec.manifest,
  types: 'manifest',
  logger: { error: () => {}, warn: () => {} }, // 500s are expected: the tests that count log lines run in-process
})
if (globalThis.Bun) {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app.fetch, websocket: app.websocket })
  console.log(`listening ${server.url.origin}`)
} else {
  Deno.serve(
    { hostname: '127.0.0.1', port: 0, onListen: (a) => console.log(`listening http://${a.hostname}:${a.port}`) },
    app.fetch,
  )
}
