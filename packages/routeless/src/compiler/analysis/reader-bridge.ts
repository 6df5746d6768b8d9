/**
 * TypeScript 7's checker on Bun and Deno: `typescript/unstable/sync` reads its checker's pipe with `fs.readSync` on
 * Node's own handles, which only Node has; `typescript/unstable/async` runs anywhere but answers with promises, and
 * the analysis (`analyze.ts`, `type-schema.ts`) asks a synchronous `TypeReader`. The bridge: the async API runs in a
 * worker thread, and this thread sees a synchronous facade of it — the same module shape as `unstable/sync` (`API`,
 * the flag enums), whose objects (API, snapshot, project, checker, types, symbols, nodes) are proxies: reading a
 * property or calling a method posts the request to the worker and blocks on `Atomics.wait` until the worker, having
 * awaited the async API, answers (`receiveMessageOnPort`). `reader-native.ts`'s reader then runs unchanged on it.
 *
 * What crosses: primitives, arrays and plain objects by value; any other object as a reference (one proxy per object,
 * so a type is the same handle each time it comes back), with its own primitive fields (`id`, `flags`, `name`,
 * `kind` …) copied, so that reading them needs no round trip. The functions of `unstable/ast` called on a proxy run in
 * the worker, on its nodes (one round trip, not one per property they read).
 * @module
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads'
import type { TypeScriptCompiler } from './type-reader.ts'

/** The worker: imports the async API and `unstable/ast`, answers each request once the promises it makes settle. */
const WORKER = `
const { workerData } = require('node:worker_threads')
const { port, flag, modules } = workerData
const loaded = Promise.all([import(modules.async), import(modules.ast)]).then(([async, ast]) => ({ async, ast }))
const refs = new Map()
const ids = new WeakMap()
let next = 1
const plain = (v) => { const p = Object.getPrototypeOf(v); return p === Object.prototype || p === null }
function encode(value, depth = 0) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value
  if (Array.isArray(value)) return value.map((v) => encode(v, depth + 1))
  if (typeof value === 'object' && plain(value) && depth < 8) {
    const out = {}
    for (const k of Object.keys(value)) out[k] = encode(value[k], depth + 1)
    return out
  }
  let id = ids.get(value)
  if (id === undefined) {
    id = next++
    ids.set(value, id)
    refs.set(id, value)
  }
  const own = {}
  if (typeof value === 'object')
    for (const k of Object.keys(value)) {
      const v = value[k]
      if (v === undefined || v === null || ['string', 'number', 'boolean', 'bigint'].includes(typeof v)) own[k] = v
    }
  return { $ref: id, own, fn: typeof value === 'function' }
}
function decode(value) {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(decode)
  if (typeof value.$ref === 'number') return refs.get(value.$ref)
  const out = {}
  for (const k of Object.keys(value)) out[k] = decode(value[k])
  return out
}
async function answer(m) {
  const mods = await loaded
  if (m.op === 'init') return true
  if (m.op === 'module') {
    const mod = mods[m.module]
    if (!m.call) return mod[m.prop]
    return mod[m.prop](...decode(m.args))
  }
  if (m.op === 'new') return new mods.async[m.prop](...decode(m.args))
  if (m.op === 'forget') {
    const keep = new Set(m.keep)
    for (const [id, value] of refs) if (!keep.has(id)) { refs.delete(id); ids.delete(value) }
    return true
  }
  const target = refs.get(m.ref)
  if (m.op === 'get') {
    const v = target[m.prop]
    return typeof v === 'function' ? { $function: true } : v
  }
  if (m.op === 'call') return target[m.prop](...decode(m.args))
  throw new Error('unknown request ' + m.op)
}
port.on('message', async (m) => {
  let reply
  try {
    const v = await answer(m)
    reply = v && v.$function === true ? { fn: true } : { ok: encode(await v) }
  } catch (error) {
    reply = { error: String((error && error.message) || error) }
  }
  port.postMessage(reply)
  Atomics.store(flag, 0, 1)
  Atomics.notify(flag, 0)
})
`

/** How long one request may take before the bridge gives up (the checker opening a large program included). */
const TIMEOUT_MS = 120_000

type Wire = unknown

/** One worker and the proxies of its objects. */
class Bridge {
  private readonly worker: Worker
  private readonly port: MessagePort
  private readonly flag = new Int32Array(new SharedArrayBuffer(4))
  private readonly proxies = new Map<number, object>()
  private readonly idOf = new WeakMap<object, number>()

  constructor(modules: { async: string; ast: string }) {
    const { port1, port2 } = new MessageChannel()
    this.port = port1
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: { port: port2, flag: this.flag, modules },
      transferList: [port2],
    })
    this.worker.unref()
    this.request({ op: 'init' })
  }

  /** Posts `message` to the worker and waits, blocking this thread, for its answer. */
  request(message: Record<string, unknown>): unknown {
    Atomics.store(this.flag, 0, 0)
    this.port.postMessage(message)
    const deadline = Date.now() + TIMEOUT_MS
    for (;;) {
      Atomics.wait(this.flag, 0, 0, 1000)
      const received = receiveMessageOnPort(this.port)
      if (received) {
        const reply = received.message as { ok?: Wire; error?: string; fn?: true }
        if (reply.error !== undefined) throw new Error(reply.error)
        return reply.fn ? FUNCTION : this.decode(reply.ok)
      }
      if (Date.now() > deadline) throw new Error('the TypeScript checker (typescript/unstable/async) did not answer')
    }
  }

  close(): void {
    void this.worker.terminate()
    this.port.close()
  }

  private encode(value: unknown): Wire {
    if (value === null || typeof value !== 'object') return value
    const id = this.idOf.get(value)
    if (id !== undefined) return { $ref: id }
    if (Array.isArray(value)) return value.map((v) => this.encode(v))
    const out: Record<string, Wire> = {}
    for (const [k, v] of Object.entries(value)) out[k] = this.encode(v)
    return out
  }

  private decode(value: Wire): unknown {
    if (value === null || typeof value !== 'object') return value
    if (Array.isArray(value)) return value.map((v) => this.decode(v))
    const ref = value as { $ref?: number; own?: Record<string, unknown> }
    if (typeof ref.$ref === 'number') return this.proxy(ref.$ref, ref.own ?? {})
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = this.decode(v)
    return out
  }

  /** The proxy of the worker's object `id`: its own primitive fields here, the rest asked for. */
  private proxy(id: number, own: Record<string, unknown>): object {
    const known = this.proxies.get(id)
    if (known) return known
    const methods = new Map<PropertyKey, (...args: unknown[]) => unknown>()
    const proxy = new Proxy(own, {
      get: (target, prop) => {
        if (typeof prop === 'symbol' || prop === 'then') return undefined
        if (Object.hasOwn(target, prop)) return target[prop]
        const method = methods.get(prop)
        if (method) return method
        const value = this.request({ op: 'get', ref: id, prop })
        if (value !== FUNCTION) return value
        const call = (...args: unknown[]) => this.request({ op: 'call', ref: id, prop, args: this.encode(args) })
        methods.set(prop, call)
        return call
      },
      has: (target, prop) =>
        typeof prop === 'string' && (Object.hasOwn(target, prop) || this.get(id, prop) !== undefined),
      set: () => false,
    })
    this.proxies.set(id, proxy)
    this.idOf.set(proxy, id)
    return proxy
  }

  private get(id: number, prop: string): unknown {
    return this.request({ op: 'get', ref: id, prop })
  }

  /**
   * Forgets every object but `live`, here and in the worker: a kept checker's types, symbols and nodes of the analyses
   * before (an object met again comes back as a new proxy).
   */
  forget(live: object[]): void {
    const keep = live.map((o) => this.idOf.get(o)).filter((id): id is number => id !== undefined)
    this.request({ op: 'forget', keep })
    for (const id of [...this.proxies.keys()]) if (!keep.includes(id)) this.proxies.delete(id)
  }

  isProxy(value: unknown): boolean {
    return typeof value === 'object' && value !== null && this.idOf.has(value)
  }

  /**
   * The facade of `typescript/unstable/sync`: `API` constructs in the worker; every other export (the flag enums)
   * is read from the async module once.
   */
  syncModule(): object {
    const bridge = this
    const values = new Map<string, unknown>()
    class API {
      constructor(...args: unknown[]) {
        // A constructor may return another object: the proxy of the worker's API.
        // biome-ignore lint/correctness/noConstructorReturn: the facade's objects are proxies
        return bridge.request({ op: 'new', prop: 'API', args: bridge.encode(args) }) as API
      }
    }
    return new Proxy(
      {},
      {
        get: (_, prop) => {
          if (prop === 'API') return API
          if (typeof prop !== 'string') return undefined
          if (!values.has(prop)) values.set(prop, this.request({ op: 'module', module: 'async', prop }))
          return values.get(prop)
        },
      },
    )
  }

  /** `typescript/unstable/ast` (this thread's copy): a function given a proxy runs in the worker, on its node. */
  astModule(local: Record<string, unknown>): object {
    const wrapped = new Map<string, unknown>()
    return new Proxy(local, {
      get: (target, prop) => {
        const value = target[prop as string]
        if (typeof prop !== 'string' || typeof value !== 'function') return value
        if (!wrapped.has(prop))
          wrapped.set(prop, (...args: unknown[]) =>
            args.some((a) => this.isProxy(a))
              ? this.request({ op: 'module', module: 'ast', prop, call: true, args: this.encode(args) })
              : (value as (...a: unknown[]) => unknown)(...args),
          )
        return wrapped.get(prop)
      },
    })
  }
}

/** The worker's answer for a property that is a method. */
const FUNCTION = Symbol('function')

/**
 * TypeScript ≥ 7 through its async API, as a compiler of the native backend: each `open` starts a worker (stopped
 * when the reader closes) and runs `reader-native.ts`'s reader over the bridge; `keep` starts one for a kept checker
 * (a watcher's, on Bun or Deno), stopped with it, and forgets each analysis's objects after it.
 */
export async function bridgedCompiler(
  version: string,
  modules: { async: string; ast: string },
): Promise<TypeScriptCompiler> {
  const [{ nativeCompiler }, ast] = await Promise.all([import('./reader-native.ts'), import(modules.ast)])
  /** `use`'s result over a native compiler on a new bridge; the bridge is closed with `close` (or when `use` throws). */
  function bridged<T>(use: (compiler: ReturnType<typeof nativeCompiler>, bridge: Bridge) => T): T {
    const bridge = new Bridge(modules)
    try {
      const hooks = { idle: (live: object[]) => bridge.forget(live) }
      return use(nativeCompiler(version, bridge.syncModule() as never, bridge.astModule(ast) as never, hooks), bridge)
    } catch (error) {
      bridge.close()
      throw error
    }
  }
  return {
    version,
    backend: 'native',
    open: (files, cwd) =>
      bridged((compiler, bridge) => {
        const reader = compiler.open(files, cwd)
        const close = reader.close.bind(reader)
        reader.close = () => {
          try {
            close()
          } finally {
            bridge.close()
          }
        }
        return reader
      }),
    keep: (cwd) =>
      bridged((compiler, bridge) => {
        const kept = compiler.keep(cwd)
        return {
          open: (files) => kept.open(files),
          close() {
            try {
              kept.close()
            } finally {
              bridge.close()
            }
          },
        }
      }),
  }
}
