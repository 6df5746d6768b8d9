/**
 * The generator of a handler's function: from its shape (`HandlerShape`: what `lifecycle/pipeline.ts`'s `shapeOf`
 * reads off the route table and the manifest), the source of one factory `function (p, rt) { …; return function
 * run(call) { … } }` that does exactly what the handler needs — construct, its guards, `before()`, the body read, the
 * binding of each checked parameter as straight-line code, the call, the reply — with the stages it does not need
 * absent. `p` holds the handler's own values (its class, guards, checks, serializer: `HandlerParts`), `rt` the helpers
 * it calls (`handler-runtime.ts`). A step that may return a promise ends its function: the rest is the next function,
 * called at once when the step finished synchronously, so a handler that awaits nothing is answered in the same tick.
 * @module
 */

import type { CheckShape, HandlerShape, TypedShape } from '../lifecycle/pipeline.ts'

/** The factory's source: `function (p, rt) { … }`. */
export function handlerSource(shape: HandlerShape): string {
  const functions: string[][] = [[]]
  for (const step of stepsOf(shape)) {
    functions[functions.length - 1]!.push(...step.code)
    if (step.waits) {
      functions[functions.length - 1]!.push(...step.waits(`s${functions.length}`))
      functions.push([])
    }
  }
  functions[functions.length - 1]!.push(...invoke(shape))
  const text = functions.map((body, i) => fn(i === 0 ? 'return function run(call) {' : `function s${i}(call) {`, body))
  return [
    'function (p, rt) {',
    ...indent([...prelude(shape), ...text, fn('function done(call, value) {', done(shape))]),
    '}',
  ].join('\n')
}

function fn(head: string, body: string[]): string {
  return [head, ...indent(body), '}'].join('\n')
}

function indent(lines: string[]): string[] {
  return lines.flatMap((l) => l.split('\n')).map((l) => `  ${l}`)
}

interface Step {
  code: string[]
  /** A step that may wait: given the next function's name, the lines that go on in it (synchronously or later). */
  waits?: (next: string) => string[]
}

function stepsOf(shape: HandlerShape): Step[] {
  const steps: Step[] = [{ code: construct }]
  if (shape.lastEventId)
    steps.push({ code: ['// a reconnecting client: its Last-Event-ID, as lastEventId', 'rt.lastEventId(call)'] })
  for (let i = 0; i < shape.guards; i++) steps.push(waitFor(`g${i}(call.controller)`, `guard ${i + 1}`))
  if (shape.before) steps.push(waitFor('before.call(call.controller)', 'before()'))
  if (shape.read) steps.push(read(shape.read))
  if (shape.distinct.some(Boolean)) steps.push({ code: distinct(shape.distinct) })
  if (shape.bind === 'schemas') steps.push(bindSchemas)
  else if (shape.bind) steps.push({ code: bindTypes(shape.bind) })
  return steps
}

/** The values the functions use, taken from `p` once. */
function prelude(shape: HandlerShape): string[] {
  const out = ['const Cls = p.Cls, context = p.context, fn = p.fn, INCOMING = rt.INCOMING, Draft = rt.ResponseDraft']
  for (let i = 0; i < shape.guards; i++) out.push(`const g${i} = p.guards[${i}]`)
  if (shape.before) out.push('const before = p.before')
  if (shape.read) out.push('const bodyOptions = p.body')
  if (shape.distinct.some(Boolean)) out.push(`const names = ${JSON.stringify(shape.distinct)}`)
  if (typeof shape.bind === 'object') {
    shape.bind.positional.forEach((c, i) => out.push(...checkConsts(`a${i}`, `p.typed.positional[${i}].check`, c)))
    const kw = shape.bind.kwargs
    kw?.properties.forEach((c, i) => out.push(...checkConsts(`k${i}`, `p.typed.kwargs.properties[${i}][1]`, c)))
    if (typeof kw?.extra === 'object') out.push(...checkConsts('x', 'p.typed.kwargs.extra', kw.extra))
    if (kw) out.push('const kw = p.typed.kwargs')
  }
  if (shape.stream) out.push('const stream = p.stream')
  if (shape.stream !== 'always')
    out.push(shape.websocket ? 'const accept = p.accept' : 'const serialize = p.serialize, answers = p.answers')
  if (shape.checkReturn) out.push('const checkReturn = p.checkReturn')
  return out
}

/** `K` (the check, for the 400), `V` (its validator), `C` (its coercion), `R` (its reviver) of one value. */
function checkConsts(id: string, from: string, c: CheckShape): string[] {
  const out = [`const K${id} = ${from}, C${id} = K${id}.coerce`]
  if (c.validate) out.push(`const V${id} = K${id}.validate`)
  if (c.revive) out.push(`const R${id} = K${id}.revive`)
  return out
}

const construct = [
  'const c = new Cls()',
  'c[INCOMING] = call.incoming',
  'c.context = context',
  'c.kwargs = call.kwargs',
  'c.body = undefined',
  'c.args = call.args',
  'c.env = call.env',
  'c.response = call.state = new Draft()',
  'call.controller = c',
]

/** A step whose result may be a promise: wait for it, else go on at once. */
function waitFor(expression: string, what: string): Step {
  return {
    code: [`// ${what}`, `const w = ${expression}`],
    waits: (next) => [
      `if (w !== undefined && rt.isThenable(w)) return Promise.resolve(w).then(() => ${next}(call))`,
      `return ${next}(call)`,
    ],
  }
}

function read(when: 'always' | 'get' | 'any'): Step {
  const condition = {
    always: undefined,
    get: "call.incoming.method === 'GET' && rt.declaresBody(call.incoming)",
    any:
      "call.incoming.method === 'GET' ? rt.declaresBody(call.incoming) : " +
      "call.incoming.method !== 'HEAD' && call.incoming.method !== 'OPTIONS'",
  }[when]
  const reading = (next: string) =>
    `rt.readBody(call.incoming, bodyOptions).then((parsed) => { rt.takeBody(call, parsed); return ${next}(call) })`
  return {
    code: ['// read the body'],
    waits: (next) =>
      condition === undefined
        ? [`return ${reading(next)}`]
        : [`if (${condition})`, `  return ${reading(next)}`, `return ${next}(call)`],
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
    'const n = call.r.args.length',
    `if (${test}) rt.repeated(call, names)`,
  ]
}

const bindSchemas: Step = {
  code: ["// bind: the handler's own schemas (`static params`)"],
  waits: (next) => [
    'return p.binder(call.r.args, call.kwargs).then((bound) => {',
    '  call.controller.kwargs = call.kwargs = bound.kwargs',
    '  call.controller.args = call.args = bound.args',
    `  return ${next}(call)`,
    '})',
  ],
}

/** Binding by the TypeScript types: each checked value coerced, validated, revived; every failure in one 400. */
function bindTypes(typed: TypedShape): string[] {
  const out = ['// bind: the TypeScript types', 'let issues']
  if (typed.positional.length) out.push('const args = call.r.args, outArgs = args.slice()')
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
  const kw = typed.kwargs
  if (kw) out.push(...bindKeywords(kw))
  out.push('if (issues !== undefined) rt.reject(issues)')
  if (typed.positional.length) out.push('call.controller.args = call.args = outArgs')
  if (kw) out.push('call.controller.kwargs = call.kwargs = out')
  return out
}

function bindKeywords(kw: NonNullable<TypedShape['kwargs']>): string[] {
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
    out.push(
      ...check(`k${i}`, c, 'raw', 'out[key]', 'key', kw.json, true).map((l) => `    ${l}`),
      '      break',
      '    }',
    )
  })
  out.push('    default:')
  if (kw.extra === 'refuse') out.push('      issues = rt.unknownKey(issues, key, kw.unknownReason)')
  else if (kw.extra === 'keep') out.push('      out[key] = raw')
  else out.push(...check('x', kw.extra, 'raw', 'out[key]', 'key', kw.json, true).map((l) => `    ${l}`))
  out.push('  }', '}')
  for (const name of kw.required)
    out.push(`if (kwargs[${JSON.stringify(name)}] === undefined) issues = rt.missing(issues, ${JSON.stringify(name)})`)
  if (kw.whole) out.push('if (issues === undefined && !kw.whole.validate(out)) issues = rt.wholeFailed(kw.whole)')
  return out
}

/**
 * One value `raw` coerced (not when it came in a JSON body: `json`), validated and revived into `into`; a failure
 * leaves the raw value there (`keep`: put it there) and joins `issues`.
 */
function check(
  id: string,
  c: CheckShape,
  raw: string,
  into: string,
  name: string,
  json = false,
  keep = false,
): string[] {
  const coerced = json ? `json !== undefined && Object.hasOwn(json, key) ? ${raw} : C${id}(${raw})` : `C${id}(${raw})`
  const revived = c.revive ? `R${id}(v)` : 'v'
  if (!c.validate) return [`  ${into} = ${c.revive ? `R${id}(${coerced})` : coerced}`]
  const failed = `issues = rt.invalid(issues, K${id}, ${raw}, ${name})`
  return [
    `  const v = ${coerced}`,
    `  if (V${id}(v)) ${into} = ${revived}`,
    keep ? `  else { ${into} = ${raw}; ${failed} }` : `  else ${failed}`,
  ]
}

/** The call, then `done` with its value (when it settles). */
function invoke(shape: HandlerShape): string[] {
  const args = shape.kwargs ? `rt.callArguments(call.args, call.kwargs, ${shape.kwargs.slots})` : 'call.args'
  return [
    '// the call',
    `const v = fn.apply(call.controller, ${args})`,
    'if (rt.isThenable(v)) return Promise.resolve(v).then((x) => done(call, x))',
    'return done(call, v)',
  ]
}

/** The reply: the returned value as the answer (HEAD keeps status and headers); a WebSocket's acceptance instead. */
function done(shape: HandlerShape): string[] {
  if (shape.websocket) return ['return accept(call, value)']
  const streamed = [
    'const answer = rt.streamReply(value, call, stream)',
    'return call.r.head ? rt.withoutBody(answer) : answer',
  ]
  if (shape.stream === 'always') return streamed
  return [
    // Data or a stream: an async iterable returned is the stream.
    ...(shape.stream === 'iterable' ? ['if (rt.isAsyncIterable(value)) {', ...indent(streamed), '}'] : []),
    ...(shape.checkReturn ? ['checkReturn(value, call.state)'] : []),
    'const answer = rt.toReply(value, call.state, serialize, answers)',
    'return call.r.head ? rt.withoutBody(answer) : answer',
  ]
}

/** The stages `shape` runs, by name, in order. */
export function stageNames(shape: HandlerShape): string[] {
  return [
    'construct',
    ...Array.from({ length: shape.guards }, () => 'guard'),
    ...(shape.before ? ['before'] : []),
    ...(shape.read ? ['read'] : []),
    ...(shape.distinct.some(Boolean) ? ['distinct'] : []),
    ...(shape.bind ? ['bind'] : []),
    'invoke',
    shape.websocket ? 'accept' : 'reply',
  ]
}
