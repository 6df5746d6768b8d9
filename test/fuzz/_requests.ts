/**
 * Requests generated from an app's own handlers: each handler's path with its positional parts (valid at times, at
 * times not), its keywords sent in the query, a form, JSON or multipart, with the required members filled as a client
 * would and the shapes a fuzzer found mixed in — a member sent as a file beside its fields (`user` and `user[name]`),
 * a list given a field name, a number beyond a double at any depth of a JSON body, a leading `?`, keys aimed at
 * prototypes. Each prints as one request line in a failure report (after fast-check's shrinking).
 */
import fc from 'fast-check'
import type { Application } from 'routeless'
import { valuesOf } from '../_differential.ts'
import { edgy, printable, type SentRequest } from './_fuzz.ts'

type Schema = Record<string, any>
const deref = (s: Schema, defs: Record<string, Schema>): Schema =>
  typeof s?.$ref === 'string' ? deref(defs[s.$ref.slice(8)] ?? {}, defs) : (s ?? {})

const PARTS = ['1', '0', '-1', '5', '6', 'x', '1e999', '65536', '1.5', 'red', '2024-01-02', '%00', '%3F']
const RAW_JSON = [
  '1',
  '1e999',
  '-1E+400',
  '1e308',
  '0.5',
  '"a"',
  '""',
  'null',
  'true',
  '[]',
  '{}',
  '[1,"a"]',
  '[1e999,"a"]',
]

/** JSON members as text: values of the declared kind, and the shapes that broke things. */
const jsonMember: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...RAW_JSON),
    fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
    fc.array(tie('v'), { maxLength: 3 }).map((xs) => `[${xs.join(',')}]`),
    fc
      .array(fc.tuple(fc.constantFrom('name', 'age', 'kind', 'n', 's', 'at', 'city', '__proto__', 'x'), tie('v')), {
        maxLength: 3,
      })
      .map((ms) => `{${ms.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).v

/** A first valid text for a value of `schema`, as a form sends it. */
function validText(schema: Schema, defs: Record<string, Schema>): string {
  return valuesOf(schema, defs)[0] ?? 'x'
}

/** Form fields that fill `schema`'s required members under `name` (`user[name]=…`, `user[age]=…`). */
function formFields(name: string, schema: Schema, defs: Record<string, Schema>, depth = 0): [string, string][] {
  const s = deref(schema, defs)
  if ([s.type].flat().includes('object') && s.properties && depth < 3)
    return (s.required ?? []).flatMap((k: string) => formFields(`${name}[${k}]`, s.properties[k], defs, depth + 1))
  if ([s.type].flat().includes('array') && Array.isArray(s.prefixItems))
    return s.prefixItems.map((item: Schema, i: number) => [`${name}[${i}]`, validText(item, defs)] as [string, string])
  return [[name, validText(s, defs)]]
}

/** JSON text of a value of `schema`, any number in it sometimes beyond a double, any member sometimes of another kind. */
function validJson(schema: Schema, defs: Record<string, Schema>, depth = 0): fc.Arbitrary<string> {
  const s = deref(schema, defs)
  const wrong = fc.constantFrom(...RAW_JSON)
  const pick = (arb: fc.Arbitrary<string>) => fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: wrong })
  if (depth > 3) return wrong
  if (Array.isArray(s.anyOf)) return pick(fc.oneof(...s.anyOf.map((b: Schema) => validJson(b, defs, depth + 1))))
  if (Array.isArray(s.enum)) return pick(fc.constantFrom(...s.enum.map((v: unknown) => JSON.stringify(v))))
  if ('const' in s) return pick(fc.constant(JSON.stringify(s.const)))
  const type = [s.type].flat()[0]
  if (type === 'integer' || type === 'number')
    return fc.constantFrom(String(s.minimum ?? 1), '1e999', '-1e999', '1e308', String((s.maximum ?? 10) + 1))
  if (type === 'boolean') return pick(fc.constant('true'))
  if (type === 'string') return pick(fc.constant(JSON.stringify(validText(s, defs))))
  if (type === 'array') {
    if (Array.isArray(s.prefixItems))
      return pick(
        fc.tuple(...s.prefixItems.map((i: Schema) => validJson(i, defs, depth + 1))).map((xs) => `[${xs.join(',')}]`),
      )
    return pick(fc.array(validJson(s.items ?? {}, defs, depth + 1), { maxLength: 2 }).map((xs) => `[${xs.join(',')}]`))
  }
  if (type === 'object') {
    const members = Object.entries((s.properties ?? {}) as Record<string, Schema>).map(([k, m]) =>
      fc.option(
        validJson(m, defs, depth + 1).map((v) => `${JSON.stringify(k)}:${v}`),
        {
          nil: undefined,
          freq: (s.required ?? []).includes(k) ? 20 : 2,
        },
      ),
    )
    return pick(fc.tuple(...members).map((ms) => `{${ms.filter((m) => m !== undefined).join(',')}}`))
  }
  return pick(jsonMember)
}

/** Requests for the handlers of `app`. */
export function requestsFor(app: Application): fc.Arbitrary<SentRequest> {
  const defs = app.table.defs as Record<string, Schema>
  const handlers = [...app.table.handlers()].filter((h) => h.method !== 'WEBSOCKET')
  // Handlers that take a body and keywords are where the readers and the binder meet: drawn more often.
  const weighted = handlers.map((h) => ({
    weight: h.method !== 'GET' && h.types?.kwargs ? 4 : 1,
    arbitrary: fc.constant(h),
  }))
  return fc.oneof(...weighted).chain((h) => {
    const kw = h.types?.kwargs ? deref(h.types.kwargs.schema, defs) : {}
    const props = Object.keys(kw.properties ?? {})
    const names = props.length ? props : ['x']
    const key = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...names) },
      {
        weight: 4,
        arbitrary: fc
          .tuple(
            fc.constantFrom(...names),
            fc.constantFrom('[name]', '.name', '[size]', '[0]', '[1]', '[]', '[length]', '[0][name]', '[kind]', '.n'),
          )
          .map(([n, s]) => n + s),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '__proto__[polluted]',
          'constructor[prototype][polluted]',
          `${names[0]}[__proto__][polluted]`,
        ),
      },
      { weight: 1, arbitrary: edgy(6) },
    )
    const valuePool = [...new Set(Object.values(kw.properties ?? {}).flatMap((s) => valuesOf(s as Schema, defs)))]
    const value = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(valuePool.length ? valuePool : ['1'])) },
      { weight: 2, arbitrary: fc.constantFrom(...PARTS, ...RAW_JSON) },
      { weight: 1, arbitrary: edgy(8) },
    )
    const holes = (h.path.match(/\{[^}]+\}/g) ?? []).length
    // Positional parameters fill the path's placeholders, or follow the path when it has none (`/add/1/2`).
    const positional = h.types?.positional ?? []
    const trailing = holes === 0 ? positional.filter((p) => !p.rest).length : 0
    const part = (i: number) => {
      const p = positional[i]
      const valid = p ? validText(p.rest ? (p.schema.items ?? {}) : p.schema, defs) : '1'
      return fc.oneof({ weight: 4, arbitrary: fc.constant(valid) }, { weight: 1, arbitrary: fc.constantFrom(...PARTS) })
    }
    const method = h.method === 'ANY' ? 'GET' : h.method
    const hasBody = method !== 'GET' && method !== 'HEAD'
    return fc
      .record({
        parts: fc.tuple(...Array.from({ length: holes + trailing }, (_, i) => part(i))),
        extra: fc.oneof(
          { weight: 6, arbitrary: fc.constant([] as string[]) },
          { weight: 1, arbitrary: fc.array(fc.constantFrom(...PARTS), { minLength: 1, maxLength: 2 }) },
        ),
        question: fc.constantFrom('?', '?', '??'),
        // The required members filled as a form sends them, one field at times a file, then noise.
        valid: fc.boolean(),
        collide: fc.option(fc.constantFrom(...names), { freq: 3 }),
        fileAt: fc.nat({ max: 6 }),
        fields: fc.array(fc.tuple(key, value, fc.nat({ max: 3 })), { maxLength: 4 }),
        kind: hasBody ? fc.constantFrom('query', 'form', 'json', 'multipart') : fc.constant('query'),
        json: fc.oneof(
          validJson(kw, defs),
          fc
            .array(fc.tuple(fc.constantFrom(...names, '__proto__', 'x'), jsonMember), { maxLength: 4 })
            .map((ms) => `{${ms.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
        ),
      })
      .map(({ parts, extra, question, valid, collide, fileAt, fields: noise, kind, json }): SentRequest => {
        const base: [string, string, number][] = valid
          ? (kw.required ?? []).flatMap((k: string) =>
              formFields(k, kw.properties[k], defs).map(
                ([f, v], i) => [f, v, i === fileAt ? 0 : 1] as [string, string, number],
              ),
            )
          : []
        // A member sent as a file, with its fields beside it (`user` a file and `user[name]`).
        const fields = [...base, ...noise]
        if (collide !== null) fields.unshift([collide, 'x', 0])
        let n = 0
        let url =
          h.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(parts[n++]!)) +
          [...parts.slice(holes), ...extra].map((p) => `/${encodeURIComponent(p)}`).join('')
        const text = fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
        if (kind === 'query') {
          if (fields.length) url += question + text
          return printable({ path: url, init: { method }, shown: '' })
        }
        if (kind === 'form') {
          const type = 'application/x-www-form-urlencoded'
          const body = question === '??' ? `?${text}` : text
          return printable({
            path: url,
            init: { method, body, headers: { 'content-type': type } },
            shown: `form ${body}`,
          })
        }
        if (kind === 'json') {
          const body = json
          return printable({
            path: url,
            init: { method, body, headers: { 'content-type': 'application/json' } },
            shown: `json ${body}`,
          })
        }
        const form = new FormData()
        const shown: string[] = []
        for (const [k, v, file] of fields) {
          // One part in four a file (`filename="f.txt"`): where a text, an object or a File is declared.
          if (file === 0) form.append(k, new File([v], 'f.txt'))
          else form.append(k, v)
          shown.push(file === 0 ? `${k}=<file f.txt: ${v}>` : `${k}=${v}`)
        }
        return printable({ path: url, init: { method, body: form }, shown: `multipart ${shown.join(' & ')}` })
      })
  })
}
