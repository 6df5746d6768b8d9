/**
 * The code of the `bind` stage for a handler bound by its TypeScript types (`stages.ts`): each positional and keyword
 * coerced from text (not a JSON body's members), validated and revived, straight-line, every failure joining one 400.
 * What it returns is a stage's `Code`: values taken from `p` once, and the lines.
 * @module
 */
import type { CheckShape, TypedShape } from '../../runtime/lifecycle/handler-shape.ts'

/** Binding by the TypeScript types: each checked value coerced, validated, revived; every failure in one 400. */
export function bindTypes(typed: TypedShape): { takes: string[]; lines: string[] } {
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
