/**
 * Internal, for `--watch`: the local modules controllers import, so that an edit to `lib/db.ts` reloads as an edit to
 * a controller does. A module resolve hook (registered once, before the controllers load) does two things: it
 * reports every local file (a relative or absolute import outside `node_modules`) the process resolves, so the watcher can watch it,
 * and it gives the imports of a freshly reloaded controller (`?routeless-generation=N`) the same query, so the whole
 * local graph under it is loaded anew — not only the controller. CommonJS modules are dropped from `require.cache`.
 * @module
 */
import { createRequire, register } from 'node:module'
import { MessageChannel } from 'node:worker_threads'
import { fileURLToPath } from 'node:url'

const HOOKS = `
let port
export function initialize(data) { port = data.port }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  const url = result.url
  // Only relative and absolute imports: a package (bare name, #import) keeps one copy, and its identity.
  const relative = specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/') || specifier.startsWith('file:')
  if (!relative || !url.startsWith('file:') || url.includes('/node_modules/')) return result
  port.postMessage(url.split('?')[0])
  const generation = context.parentURL && /[?&]routeless-generation=(\\d+)/.exec(context.parentURL)
  if (!generation || url.includes('routeless-generation=')) return result
  return { ...result, url: url + (url.includes('?') ? '&' : '?') + 'routeless-generation=' + generation[1] }
}
`

const files = new Set<string>()
const listeners = new Set<(file: string) => void>()
let registered = false

/** Registers the resolve hook once. Files resolved before this are learned after the first reload. */
export function trackLocalModules(): void {
  if (registered) return
  registered = true
  const { port1, port2 } = new MessageChannel()
  port1.on('message', (url: string) => {
    const file = fileURLToPath(url)
    if (files.has(file)) return
    files.add(file)
    for (const listener of listeners) listener(file)
  })
  port1.unref()
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, { data: { port: port2 }, transferList: [port2] })
}

/** Calls `listener` with every local file resolved so far and from now on; returns the unsubscribe function. */
export function onLocalModule(listener: (file: string) => void): () => void {
  for (const file of files) listener(file)
  listeners.add(listener)
  return () => listeners.delete(listener)
}

const requireCache = createRequire(import.meta.url).cache

/** Drops local CommonJS modules (a `.ts` outside a `"type": "module"` package) so they load afresh. */
export function forgetLocalCommonJs(): void {
  for (const key of Object.keys(requireCache))
    if (!key.includes('/node_modules/') && !key.includes('\\node_modules\\')) delete requireCache[key]
}
