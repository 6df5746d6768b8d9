/**
 * The stages of the lifecycle, in the order they run (see `pipeline.ts`, which picks each handler's stages).
 * Each is made once per handler at start-up with what it needs, and runs with the request's `Call`.
 * @module
 */
import { HttpError } from '../base/errors.ts'
import type { ParamIssue } from '../binding/standard-schema.ts'
import type { Guard } from '../guards/auth.ts'
import type { Handler } from '../routing/table.ts'
import { callArguments, declaresBody, INCOMING, isEmpty, isThenable, type Call, type Stage } from './call.ts'
import { readBody, type BodyOptions } from './body.ts'
import { ResponseDraft, toReply, withoutBody, type Answer } from './response.ts'
import type { SocketHandlers, UpgradeDecision } from './websocket.ts'

/** What every controller instance is given, besides the request. */
export interface ConstructOptions {
  /** The application's services (`this.context`). */
  context: unknown
}

/** Construct: the controller instance, with the request, its keywords, path parts, env and response draft. */
export function construct(handler: Handler, options: ConstructOptions): Stage {
  const Cls = handler.cls
  const context = options.context
  return (call) => {
    const controller = new Cls()
    controller[INCOMING] = call.incoming
    controller.context = context
    controller.kwargs = call.kwargs
    controller.body = undefined
    controller.args = call.args
    controller.env = call.env
    controller.response = call.state = new ResponseDraft()
    call.controller = controller
  }
}

/** Admit: one auth guard (module tree first, then the class's, then the method's). */
export function guard(check: Guard): Stage {
  return (call) => check(call.controller)
}

/** Admit: the class's `before()`, after its guards. */
export function before(fn: (...args: unknown[]) => unknown): Stage {
  return (call) => fn.call(call.controller) as void | PromiseLike<unknown>
}

/**
 * Read: the body, decoded by its content type within the handler's limit; its fields join the keywords (body over
 * query). `when` says whether this request's body is read at all: HEAD and OPTIONS bodies never are, and a GET's
 * only when it declares one (clients such as DeepL's send GET parameters as a form body).
 */
export function read(options: BodyOptions, when: 'always' | 'get' | 'any'): Stage {
  return (call) => {
    if (when !== 'always') {
      const method = call.incoming.method
      if (method === 'GET' ? !declaresBody(call.incoming) : when === 'get' || method === 'HEAD' || method === 'OPTIONS')
        return
    }
    return readBody(call.incoming, options).then((parsed) => {
      if (parsed.json) call.json = parsed.body
      // A JSON body's fields are already a copy of their own: with no query to merge into, they are the keywords.
      if (parsed.fields)
        call.kwargs = parsed.json && isEmpty(call.kwargs) ? parsed.fields : Object.assign(call.kwargs, parsed.fields)
      call.controller.body = parsed.body
      call.controller.kwargs = call.kwargs
    })
  }
}

/**
 * Bind: a keyword that names a positional parameter the path already filled is that argument given twice — a 400
 * listing it, as the Python original answers (a call cannot take two values for one argument). A keyword naming an
 * optional positional the path left out is not a repeat. `names` holds the positionals in order (`''` for one not checked).
 */
export function distinct(names: readonly string[]): Stage {
  return (call) => {
    const given = Math.min(names.length, call.r.args.length)
    let issues: ParamIssue[] | undefined
    for (let i = 0; i < given; i++) {
      const name = names[i]!
      if (name !== '' && Object.hasOwn(call.kwargs, name))
        (issues ??= []).push({ name, reason: 'was given twice, as a path part and as a keyword', kind: 'invalid' })
    }
    if (issues) {
      const summary = issues.map((i) => `${i.name}: ${i.reason}`).join('; ')
      throw new HttpError(400, `Invalid parameters: ${summary}`, { details: { errors: issues } })
    }
  }
}

/** Bind: the handler's schemas (`static params`) convert and check its arguments; every failure in one 400. */
export function bindSchemas(binder: NonNullable<Handler['binder']>): Stage {
  return (call) =>
    binder(call.r.args, call.kwargs).then((bound) => {
      call.controller.kwargs = call.kwargs = bound.kwargs
      call.controller.args = call.args = bound.args
    })
}

/** Bind: the handler's TypeScript types convert and check its arguments (synchronously); every failure in one 400. */
export function bindTypes(typed: NonNullable<Handler['typed']>): Stage {
  return (call) => {
    const bound = typed(call.r.args, call.kwargs, call.json)
    call.controller.kwargs = call.kwargs = bound.kwargs
    call.controller.args = call.args = bound.args
  }
}

/** Invoke: the handler, with its positional arguments and, when it takes them, its keywords. */
export function invoke(handler: Handler): Stage {
  const { fn, signature } = handler
  return (call) => {
    const value = fn.apply(call.controller, callArguments(call.args, call.kwargs, signature))
    if (!isThenable(value)) {
      call.value = value
      return
    }
    return Promise.resolve(value).then((v) => {
      call.value = v
    })
  }
}

/** Reply: the returned value as the answer (HEAD keeps status and headers, not the body). */
export function reply(
  serialize?: (value: unknown) => string | undefined,
  check?: (value: unknown) => void,
): (call: Call) => Answer {
  return (call) => {
    check?.(call.value)
    const answer = toReply(call.value, call.state, serialize)
    return call.r.head ? withoutBody(answer) : answer
  }
}

/** Accept (WebSocket upgrades, in place of reply): the socket handlers the handler returned. */
export function accept(handler: Handler): (call: Call) => UpgradeDecision {
  return (call) => {
    const handlers = call.value as SocketHandlers
    if (typeof handlers !== 'object' || handlers === null) {
      throw new TypeError(`${handler.className}.WEBSOCKET must return the socket handlers ({ open, message, close })`)
    }
    const protocol = call.state.touched?.get('sec-websocket-protocol') ?? undefined
    return { accepted: true, handlers, protocol }
  }
}
