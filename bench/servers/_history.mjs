/**
 * One process history for node's peers (see bench/instructions.mjs, "One history"): the modules of every node peer,
 * which a process loads before it starts its own server, so that node's shared code (`EventEmitter.init` in the
 * request's and the answer's constructors) has seen the same objects in each. bench/instructions.mjs loads them in
 * each counted process unless `--pristine`; bench/run.mjs with `--shared-history` runs each node server script with
 * `--import` of this file.
 */
export const SHARED_HISTORY = [
  'routeless',
  'routeless/node',
  'routeless/uws',
  'fastify',
  '@hono/node-server',
  './_hono-app.mjs',
  './_fastify-app.mjs',
  './_node-raw-handler.mjs',
  './_uws-raw-app.mjs',
  './_fetch-raw.mjs',
]

/** Imports every module of `SHARED_HISTORY`, in order. */
export async function loadSharedHistory() {
  for (const name of SHARED_HISTORY) await import(name)
}

// Run by `node --import=…/_history.mjs?load`: loads them before the server script.
if (new URL(import.meta.url).search === '?load') await loadSharedHistory()
