/**
 * What a handler's generated function calls (`rt` in `handler-code.ts`'s factories): the parts of the lifecycle that
 * are not worth writing out per handler — the body read and how it joins the keywords, the answer made of the
 * returned value — and every failure's wording (the 400s). Ordinary TypeScript, handed to the factories (the module
 * `routeless build` writes imports nothing).
 * @module
 */
import type { Kwargs } from '../base/controller.ts'
import type { nest } from '../contract/typed-binder.ts'
import { HttpError } from '../base/errors.ts'
import type { ParamIssue } from '../contract/standard-schema.ts'
import { invalid, missingKey, notAnObject, reject, unknownKey, wholeFailed } from '../contract/typed-binder.ts'
import type { readBody, ParsedBody } from '../lifecycle/body.ts'
import { declaresBody, INCOMING, isEmpty, isThenable, type Call } from '../lifecycle/call.ts'
import { ResponseDraft, toReply, withoutBody, type Answer } from '../lifecycle/response.ts'
import { newKwargs } from '../lifecycle/query.ts'
import type { isAsyncIterable, lastEventId, streamReply } from '../lifecycle/event-stream.ts'

/** The body's fields join the keywords (body over query); the controller sees the body and the keywords. */
export function takeBody(call: Call, parsed: ParsedBody): void {
  if (parsed.json) call.json = parsed.body
  // A JSON body's fields are already a copy of their own: with no query to merge into, they are the keywords.
  if (parsed.fields)
    call.kwargs = parsed.json && isEmpty(call.kwargs) ? parsed.fields : Object.assign(call.kwargs, parsed.fields)
  call.controller.body = parsed.body
  call.controller.kwargs = call.kwargs
}

/**
 * A keyword that names a positional parameter the path already filled is that argument given twice — a 400 listing
 * it, as the Python original answers (a call cannot take two values for one argument). A keyword naming an optional
 * positional the path left out is not a repeat. `names` holds the positionals in order (`''` for one not checked).
 */
export function repeated(call: Call, names: readonly string[]): never {
  const given = Math.min(names.length, call.resolution.args.length)
  const issues: ParamIssue[] = []
  for (let i = 0; i < given; i++) {
    const name = names[i]!
    if (name !== '' && Object.hasOwn(call.kwargs, name))
      issues.push({ name, reason: 'was given twice, as a path part and as a keyword', kind: 'invalid' })
  }
  const summary = issues.map((i) => `${i.name}: ${i.reason}`).join('; ')
  throw new HttpError(400, `Invalid parameters: ${summary}`, { details: { errors: issues } })
}

/** Positional parts in order, then the kwargs object after the `slots` positional slots. */
export function callArguments(args: unknown[], kwargs: Kwargs, slots: number): unknown[] {
  const out: unknown[] = args.slice()
  while (out.length < slots) out.push(undefined)
  out.push(kwargs)
  return out
}

/** What a generated handler factory is given. */
export const HANDLER_RUNTIME = {
  INCOMING,
  ResponseDraft,
  isThenable,
  declaresBody,
  takeBody,
  repeated,
  invalid,
  unknownKey,
  missingKey,
  wholeFailed,
  notAnObject,
  reject,
  callArguments,
  newKwargs,
  toReply,
  withoutBody,
}

/** What only some handlers' code calls, given apart (`handlers.ts`'s `LifecycleParts`). */
export interface RuntimeExtras {
  /**
   * The body read and decoded, for handlers that read one (a POST's; a GET's only where an adapter attached one,
   * which no Fetch host does: a Worker whose handlers are all GETs has none).
   */
  readBody?: typeof readBody
  /** A form's `a[0].b` fields nested, for typed keywords holding objects. */
  nest?: typeof nest
  /** An event stream's reply, and for a return type that is data or a stream, which one was returned. */
  streamReply?: typeof streamReply
  isAsyncIterable?: typeof isAsyncIterable
  /** A stream handler's `lastEventId` keyword from the `Last-Event-ID` header. */
  lastEventId?: typeof lastEventId
}

/**
 * `HANDLER_RUNTIME`, what only some handlers' code calls, and the application's error answer: an HTTP handler's code
 * answers a failure after a wait with it (`fail`), so that its promise never rejects.
 */
export type HandlerRuntime = typeof HANDLER_RUNTIME &
  RuntimeExtras & { fail: (call: Call, error: unknown) => Answer | Promise<Answer> }
