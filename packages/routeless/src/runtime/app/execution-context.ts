/**
 * The third argument a Workers-style host gives `fetch(request, env, ctx)`: work that may outlive the answer. Its
 * `waitUntil` joins `env`, so a controller reaches it as `this.env.waitUntil(promise)` — as under `routeless/fetch`,
 * whose server context carries one on every host.
 * @module
 */

/** Cloudflare's `ExecutionContext`, as far as routeless uses it. */
export interface ExecutionContext {
  /** Keeps the worker alive until `promise` settles, after the response went out. */
  waitUntil(promise: Promise<unknown>): void
  passThroughOnException?(): void
}

/** `env` with `ctx`'s `waitUntil` added, as a new object (the host's `env` is shared by every request). */
export function withExecutionContext(env: Record<string, unknown>, ctx: ExecutionContext | undefined) {
  if (typeof ctx?.waitUntil !== 'function') return env
  return { ...env, waitUntil: (promise: Promise<unknown>) => ctx.waitUntil(promise) }
}
