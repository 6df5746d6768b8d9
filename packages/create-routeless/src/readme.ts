/** The README of a new project: what answers which request, and the runtime's commands. */
import type { Runtime } from './runtimes.ts'

const SERVES: Record<Runtime['name'], string> = {
  node: 'The routeless CLI serves it on node:http (`routeless.config.ts` holds its settings).',
  bun: 'The routeless CLI, run by Bun, serves it on `Bun.serve` (`routeless.config.ts` holds its settings).',
  deno: '`main.ts` serves it on `Deno.serve`, with the prefix and host of `routeless.config.ts`.',
  workers:
    '`routeless build --target=worker` bundles it into `dist/worker.js`, which `wrangler.toml` names as the Worker.',
}

export function readme(name: string, runtime: Runtime): string {
  const { next } = runtime
  const lines = [
    `# ${name}`,
    '',
    'A [routeless](https://www.npmjs.com/package/routeless) API: the request path picks the controller module, class',
    `and method, and the handler's TypeScript signature is its contract. ${SERVES[runtime.name]}`,
    '',
    '| Request          | Runs (controllers/index.ts)                                   |',
    '| ---------------- | ------------------------------------------------------------- |',
    '| `GET /`          | `Default.GET()` → `{"message":"Hello, world!"}`               |',
    "| `GET /?name=you` | `Default.GET({ name: 'you' })`                                |",
    '| `GET /add/2/3`   | `Add.GET(2, 3)` → `{"sum":5}`; `/add/two/3` answers 400       |',
    '',
    '```sh',
    `${next.install.padEnd(22)}# install`,
    `${next.dev.padEnd(22)}# serve on http://127.0.0.1:8000${runtime.name === 'workers' ? ' (wrangler dev: 8787)' : ''}, reloading on change`,
    `${next.test.padEnd(22)}# the tests in test/ (app.request: no server needed)`,
    `${next.build.padEnd(22)}# type-check, then ${runtime.name === 'workers' ? 'bundle the Worker' : 'write the signature manifest for production'}`,
    ...(next.deploy ? [`${next.deploy.padEnd(22)}# build and deploy to Cloudflare`] : []),
    '```',
    '',
  ]
  return lines.join('\n')
}
