// @ts-check
/**
 * The workerd config that serves a built Worker module: one place for the conformance suite (test/_runtimes.ts, which
 * serves `routeless build --target=worker` trees on workerd) and the HTTP benchmark (bench/servers/_workerd.mjs).
 * Plain JavaScript, so that node runs it as it is; its JSDoc types are checked by `npm run typecheck`.
 * @module
 */

/**
 * The compatibility date the generated workerd config (and the README's wrangler.toml) names. From 2026-08-04 on,
 * `nodejs_compat` is the default (the `node:*` imports of a routeless bundle need it); naming the flag as well is an
 * error from that date.
 */
export const COMPATIBILITY_DATE = '2026-11-01'

/**
 * A workerd config serving the ES module `main` (beside it) on 127.0.0.1, on a port the system picks: workerd reports
 * it as `{"event":"listen",…,"port":N}` on the descriptor `--control-fd` names.
 * @param {string} main the module's path, relative to the config file
 * @param {string} [compatibilityDate]
 * @param {string[]} [flags] compatibility flags
 * @param {Record<string, string>} [bindings] text bindings (`env.NAME`)
 * @returns {string}
 */
export function workerdConfig(main, compatibilityDate = COMPATIBILITY_DATE, flags = [], bindings = {}) {
  const text = Object.entries(bindings).map(
    ([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`,
  )
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);

const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed ${JSON.stringify(main)}) ],
  compatibilityDate = ${JSON.stringify(compatibilityDate)},
  compatibilityFlags = ${JSON.stringify(flags)},
  bindings = [ ${text.join(', ')} ],
);
`
}
