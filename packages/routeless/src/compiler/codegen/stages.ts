/**
 * The stages of a handler's function, one record each, in the order they run: the name `routeless explain` shows,
 * what the stage does (docs/inside.md lists these lines; a test checks them), when a handler's shape has it, and the
 * code it adds (`handler-code.ts` joins them). A new stage is one entry here, and the helper its code calls when it
 * needs a new one (`rt.<name>`, `handler-runtime.ts`). Before them the route table resolves the request, around them
 * run the wrappers (`wrappers/`); an error in any stage becomes the error answer (`Application.fail`).
 * @module
 */
import type { HandlerShape, TypedShape } from '../../runtime/lifecycle/handler-shape.ts'
import { bindTypes } from './bind-code.ts'

export interface Stage {
  /** Its name, as `routeless explain` shows it. */
  name: string
  /** What it does, in one line (docs/inside.md and `routeless explain --code` show it). */
  does: string
  /** How many times a handler of `shape` runs it (0 or false: it is absent from its code); without `runs`, once. */
  runs?(shape: HandlerShape): number | boolean
  /** Its code, the `i`th time it runs. */
  code(shape: HandlerShape, i: number): Code
  /** Its lines are the body of `done(call, value)`, which the call's lines call when the value settles. */
  done?: true
}

/** What one stage adds to a handler's function (`p`: the handler's parts, `rt`: the helpers). */
export interface Code {
  /** Values its lines use, taken from `p` once, before the functions. */
  takes?: string[]
  lines: string[]
  /** A stage that may wait: given the next function's name, the lines that go on in it (synchronously or later). */
  waits?: (next: string) => string[]
}

export const STAGES: readonly Stage[] = [
  {
    name: 'construct',
    does: 'the controller, given the request, its keywords, path parts, `env`, `context` and response draft',
    // (An HTTP handler's code answers a failure after a wait with the application's error answer: `then`.)
    code: (shape) =>
      shape.websocket ? construct : { ...construct, takes: [...construct.takes!, 'const fail = rt.fail'] },
  },
  {
    name: 'last-event-id',
    does: "a reconnecting client's `Last-Event-ID` header, as the keyword `lastEventId` (an event stream's)",
    runs: (shape) => !!shape.lastEventId,
    code: () => ({ lines: ['// a reconnecting client: its Last-Event-ID, as lastEventId', 'rt.lastEventId(call)'] }),
  },
  {
    name: 'guard',
    does: "one auth guard (the app's, the tree's, the class's, the method's), before the body is read",
    runs: (shape) => shape.guards,
    code: (shape, i) => waitFor(shape, `const g${i} = p.guards[${i}]`, `g${i}(call.controller)`, `guard ${i + 1}`),
  },
  {
    name: 'before',
    does: "the controller's `before()`",
    runs: (shape) => shape.before,
    code: (shape) => waitFor(shape, 'const before = p.before', 'before.call(call.controller)', 'before()'),
  },
  {
    name: 'read',
    does: "the body, decoded within the handler's limit, its fields joining the keywords",
    runs: (shape) => !!shape.read,
    code: (shape) => ({ takes: ['const bodyOptions = p.body'], ...read(shape, shape.read!) }),
  },
  {
    name: 'distinct',
    does: 'a keyword naming a positional the path already filled: a 400 (one argument given twice)',
    runs: (shape) => shape.distinct.some(Boolean),
    code: (shape) => ({ takes: [`const names = ${JSON.stringify(shape.distinct)}`], lines: distinct(shape.distinct) }),
  },
  {
    name: 'bind',
    does: "the handler's schemas or TypeScript types convert and check its arguments (one 400 lists every failure)",
    runs: (shape) => !!shape.bind,
    code: (shape) => (shape.bind === 'schemas' ? bindSchemas(shape) : bindTypes(shape.bind as TypedShape)),
  },
  {
    name: 'invoke',
    does: 'the handler, called with its arguments',
    code: invoke,
  },
  {
    name: 'reply',
    does: 'the returned value becomes the answer: by its serializer, a declared status, an event stream',
    runs: (shape) => !shape.websocket,
    code: reply,
    done: true,
  },
  {
    name: 'accept',
    does: "a WebSocket upgrade's returned value, the socket's handlers, accepted",
    runs: (shape) => shape.websocket,
    code: () => ({ takes: ['const accept = p.accept'], lines: ['return accept(call, value)'] }),
    done: true,
  },
]

/** The stages `shape` runs, in order: a stage run twice (two guards) twice, with its index. */
export function stagesOf(shape: HandlerShape): { stage: Stage; i: number }[] {
  return STAGES.flatMap((stage) => Array.from({ length: Number(stage.runs?.(shape) ?? 1) }, (_, i) => ({ stage, i })))
}

/** The names of the stages `shape` runs, in order. */
export function stageNames(shape: HandlerShape): string[] {
  return stagesOf(shape).map(({ stage }) => stage.name)
}

const construct: Code = {
  takes: [
    'const Cls = p.Cls, context = p.context, fn = p.fn, INCOMING = rt.INCOMING, ResponseDraft = rt.ResponseDraft',
  ],
  lines: [
    'const c = new Cls()',
    'c[INCOMING] = call.incoming',
    'c.context = context',
    'c.kwargs = call.kwargs',
    'c.body = undefined',
    'c.args = call.args',
    'c.env = call.env',
    'c.response = call.response = new ResponseDraft()',
    'call.controller = c',
  ],
}

/** A call whose result may be a promise: wait for it, else go on at once. */
function waitFor(shape: HandlerShape, take: string, expression: string, what: string): Code {
  return {
    takes: [take],
    lines: [`// ${what}`, `const w = ${expression}`],
    waits: (next) => [
      ...then(shape, `if (w !== undefined && rt.isThenable(w)) return Promise.resolve(w)`, '', [
        `return ${next}(call)`,
      ]),
      `return ${next}(call)`,
    ],
  }
}

/**
 * `head.then((param) => { body })`: what goes on once a stage's promise settles. An HTTP handler's function answers
 * its own failures (the error answer, `rt.fail`: a rejection, or a throw in what follows), so that its promise never
 * rejects and the application adds no step of its own to every request that waited. A WebSocket upgrade's rejects:
 * the upgrade refuses on it.
 */
function then(shape: HandlerShape, head: string, param: string, body: string[]): string[] {
  if (shape.websocket) return [`${head}.then((${param}) => { ${body.join('; ')} })`]
  return continued(`${head}.then(`, param, body)
}

/** `open` (a call's head), then `(param) => { body }` and its failure's answer as the call's last two arguments. */
function continued(open: string, param: string, body: string[]): string[] {
  return [
    `${open}(${param}) => {`,
    '  try {',
    ...body.map((l) => `    ${l}`),
    '  } catch (e) {',
    '    return fail(call, e)',
    '  }',
    '}, (e) => fail(call, e))',
  ]
}

/** All requests have their body read, a GET's that declares one, or any but HEAD/OPTIONS (ANY). */
function read(shape: HandlerShape, when: 'always' | 'get' | 'any'): Code {
  const condition = {
    always: undefined,
    get: "call.incoming.method === 'GET' && rt.declaresBody(call.incoming)",
    any:
      "call.incoming.method === 'GET' ? rt.declaresBody(call.incoming) : " +
      "call.incoming.method !== 'HEAD' && call.incoming.method !== 'OPTIONS'",
  }[when]
  // (An HTTP handler's read goes on in the read's own continuation: `readBody`'s `next` and `failed`.)
  const reading = (next: string) => {
    const body = ['rt.takeBody(call, parsed)', `return ${next}(call)`]
    return shape.websocket
      ? then(shape, 'return rt.readBody(call.incoming, bodyOptions)', 'parsed', body)
      : continued('return rt.readBody(call.incoming, bodyOptions, ', 'parsed', body)
  }
  return {
    lines: ['// read the body'],
    waits: (next) =>
      condition === undefined
        ? reading(next)
        : [`if (${condition}) {`, ...reading(next).map((l) => `  ${l}`), '}', `return ${next}(call)`],
  }
}

/** A keyword naming a positional the path filled: the 400 (`rt.repeated` words it). */
function distinct(names: string[]): string[] {
  const tests = names.flatMap((name, i) =>
    name === '' ? [] : [`(n > ${i} && Object.hasOwn(call.kwargs, ${JSON.stringify(name)}))`],
  )
  const test = tests.length === 1 ? tests[0]!.slice(1, -1) : tests.join(' || ')
  return [
    '// bind: a positional given again as a keyword',
    'const n = call.resolution.args.length',
    `if (${test}) rt.repeated(call, names)`,
  ]
}

function bindSchemas(shape: HandlerShape): Code {
  return {
    lines: ["// bind: the handler's own schemas (`static params`)"],
    waits: (next) =>
      then(shape, 'return p.binder(call.resolution.args, call.kwargs)', 'bound', [
        'call.controller.kwargs = call.kwargs = bound.kwargs',
        'call.controller.args = call.args = bound.args',
        `return ${next}(call)`,
      ]),
  }
}

/** Most positionals before the keywords that the call names one by one (beyond, an array is made). */
const DIRECT_SLOTS = 8

/** The call, then `done` with its value (when it settles). */
function invoke(shape: HandlerShape): Code {
  const slots = shape.kwargs?.slots
  // The keywords after the positionals, named one by one: no array of the arguments made per request. (A handler
  // that takes keywords has no rest parameter, so the path gives it at most `slots` parts.)
  const call =
    slots === undefined
      ? ['const v = fn.apply(call.controller, call.args)']
      : slots <= DIRECT_SLOTS
        ? [
            ...(slots > 0 ? ['const a = call.args'] : []),
            `const v = fn.call(call.controller, ${[...Array.from({ length: slots }, (_, i) => `a[${i}]`), 'call.kwargs'].join(', ')})`,
          ]
        : [`const v = fn.apply(call.controller, rt.callArguments(call.args, call.kwargs, ${slots}))`]
  const lines = ['// the call', ...call]
  lines.push(...then(shape, 'if (rt.isThenable(v)) return Promise.resolve(v)', 'x', ['return done(call, x)']))
  lines.push('return done(call, v)')
  return { lines }
}

/** The returned value as the answer (HEAD keeps status and headers): data, or an event stream. */
function reply(shape: HandlerShape): Code {
  const takes = shape.stream ? ['const stream = p.stream'] : []
  const streamed = [
    'const answer = rt.streamReply(value, call, stream)',
    'return call.resolution.head ? rt.withoutBody(answer) : answer',
  ]
  if (shape.stream === 'always') return { takes, lines: streamed }
  takes.push('const serialize = p.serialize, answers = p.answers')
  if (shape.checkReturn) takes.push('const checkReturn = p.checkReturn')
  // Data or a stream: an async iterable returned is the stream.
  const either =
    shape.stream === 'iterable' ? ['if (rt.isAsyncIterable(value)) {', ...streamed.map((l) => `  ${l}`), '}'] : []
  return {
    takes,
    lines: [
      ...either,
      ...(shape.checkReturn ? ['checkReturn(value, call.response)'] : []),
      'const answer = rt.toReply(value, call.response, serialize, answers)',
      'return call.resolution.head ? rt.withoutBody(answer) : answer',
    ],
  }
}
