/**
 * The stages of a handler's function, one record each, in the order they run: the name `routeless explain` shows,
 * what the stage does (docs/inside.md lists these lines; a test checks them), when a handler's shape has it, and the
 * code it adds (`handler-code.ts` joins them). A new stage is one entry here, and the helper its code calls when it
 * needs a new one (`rt.<name>`, `handler-runtime.ts`). Before them the route table resolves the request, around them
 * run the wrappers (`wrappers/`); an error in any stage becomes the error answer (`Application.fail`).
 * @module
 */
import type { CheckShape, HandlerShape, TypedShape } from '../../runtime/lifecycle/handler-shape.ts'

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

/** Binding by the TypeScript types: each checked value coerced, validated, revived; every failure in one 400. */
function bindTypes(typed: TypedShape): Code {
  const takes: string[] = []
  typed.positional.forEach((c, i) => takes.push(...checkConsts(`a${i}`, `p.typed.positional[${i}].check`, c)))
  const kw = typed.kwargs
  kw?.properties.forEach((c, i) => takes.push(...checkConsts(`k${i}`, `p.typed.kwargs.properties[${i}][1]`, c)))
  if (typeof kw?.extra === 'object') takes.push(...checkConsts('x', 'p.typed.kwargs.extra', kw.extra))
  if (kw) takes.push('const kw = p.typed.kwargs')
  const out = ['// bind: the TypeScript types', 'let issues']
  if (typed.positional.length) out.push('const args = call.resolution.args, outArgs = args.slice()')
  typed.positional.forEach((c, i) => {
    const name = JSON.stringify(c.name)
    if (!c.rest)
      out.push(`if (args.length > ${c.index}) {`, ...check(`a${i}`, c, `args[${c.index}]`, `outArgs[${c.index}]`, name))
    else {
      out.push(`for (let i = ${c.index}; i < args.length; i++) {`)
      out.push(...check(`a${i}`, c, 'args[i]', 'outArgs[i]', `${name} + '.' + (i - ${c.index})`))
    }
    out.push('}')
  })
  if (kw) out.push(...bindKeywords(kw))
  out.push('if (issues !== undefined) rt.reject(issues)')
  if (typed.positional.length) out.push('call.controller.args = call.args = outArgs')
  if (kw) out.push('call.controller.kwargs = call.kwargs = out')
  return { takes, lines: out }
}

/** `K` (the check, for the 400), `V` (its validator), `C` (its coercion), `R` (its reviver) of one value. */
function checkConsts(id: string, from: string, c: CheckShape): string[] {
  const out = [`const K${id} = ${from}, C${id} = K${id}.coerce`]
  if (c.validate) out.push(`const V${id} = K${id}.validate`)
  if (c.revive) out.push(`const R${id} = K${id}.revive`)
  return out
}

function bindKeywords(kw: NonNullable<TypedShape['kwargs']>): string[] {
  const keyword = (id: string, c: CheckShape) => check(id, c, 'raw', 'out[key]', 'key', kw.json).map((l) => `    ${l}`)
  const out = ['let kwargs = call.kwargs']
  if (kw.json) {
    out.push(
      'const json = call.json',
      "if (json !== undefined && (typeof json !== 'object' || json === null || Array.isArray(json))) rt.notAnObject(json)",
    )
  }
  if (kw.structured)
    out.push(`${kw.json ? 'if (json === undefined) ' : ''}[kwargs, issues] = rt.nest(kwargs, kw.structured, issues)`)
  // keywords without a prototype: `constructor` or `toString` a request did not send is undefined, not Object's
  out.push('const out = rt.newKwargs()', 'for (const key in kwargs) {', '  const raw = kwargs[key]', '  switch (key) {')
  kw.properties.forEach((c, i) => {
    out.push(`    case ${JSON.stringify(c.name)}: {`)
    out.push(...keyword(`k${i}`, c), '      break', '    }')
  })
  out.push('    default:')
  if (kw.extra === 'refuse') out.push('      issues = rt.unknownKey(issues, key, kw.unknownReason)')
  else if (kw.extra === 'keep') out.push('      out[key] = raw')
  else out.push(...keyword('x', kw.extra))
  out.push('  }', '}')
  for (const name of kw.required)
    out.push(
      `if (kwargs[${JSON.stringify(name)}] === undefined) issues = rt.missingKey(issues, ${JSON.stringify(name)})`,
    )
  if (kw.whole) out.push('if (issues === undefined && !kw.whole.validate(out)) issues = rt.wholeFailed(kw.whole)')
  return out
}

/**
 * One value `raw` coerced (not when it came in a JSON body: `json`), validated and revived into `into`; a failure
 * joins `issues` and leaves the raw value there (a keyword's, `json` given: puts it there).
 */
function check(id: string, c: CheckShape, raw: string, into: string, name: string, json?: boolean): string[] {
  const coerced = json ? `json !== undefined && Object.hasOwn(json, key) ? ${raw} : C${id}(${raw})` : `C${id}(${raw})`
  const revived = c.revive ? `R${id}(v)` : 'v'
  if (!c.validate) return [`  ${into} = ${c.revive ? `R${id}(${coerced})` : coerced}`]
  const failed = `issues = rt.invalid(issues, K${id}, ${raw}, ${name})`
  return [
    `  const v = ${coerced}`,
    `  if (V${id}(v)) ${into} = ${revived}`,
    json !== undefined ? `  else { ${into} = ${raw}; ${failed} }` : `  else ${failed}`,
  ]
}

/** The call, then `done` with its value (when it settles). */
function invoke(shape: HandlerShape): Code {
  const args = shape.kwargs ? `rt.callArguments(call.args, call.kwargs, ${shape.kwargs.slots})` : 'call.args'
  const lines = ['// the call', `const v = fn.apply(call.controller, ${args})`]
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
