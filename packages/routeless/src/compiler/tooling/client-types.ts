/**
 * A JSON Schema of the manifest as a TypeScript type, for the typed client (`client.ts`) and its sockets
 * (`client-socket.ts`): objects, arrays, tuples, unions, literals, refs.
 * @module
 */
import { JS_MARK } from '../../runtime/contract/manifest.ts'

type Schema = Record<string, any>

/** A JSON Schema as a TypeScript type (what the manifest's schemas use: objects, arrays, tuples, unions, literals, refs). */
export function toType(schema: Schema | boolean | undefined, depth: number): string {
  if (schema === undefined || schema === true) return 'unknown'
  if (schema === false) return 'never'
  if (typeof schema.$ref === 'string')
    return schema.$ref.startsWith('#/$defs/') ? safeName(schema.$ref.slice(8)) : 'unknown'
  if (schema.not && typeof schema.not === 'object' && Object.keys(schema.not).length === 0) return 'never' // a field that must not be sent
  if (schema[JS_MARK] === 'File') return 'Blob' // a multipart part: the client sends a form
  if ('const' in schema) return JSON.stringify(schema.const)
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ')
  const union = schema.anyOf ?? schema.oneOf
  if (Array.isArray(union)) return union.map((s: Schema) => wrap(toType(s, depth))).join(' | ')
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s: Schema) => wrap(toType(s, depth))).join(' & ')
  if (Array.isArray(schema.type))
    return schema.type.map((t: string) => toType({ ...schema, type: t }, depth)).join(' | ')
  switch (schema.type) {
    case 'string':
      return schema.format === 'date-time' || schema.format === 'date' ? 'string | Date' : 'string'
    case 'number':
    case 'integer':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array':
      if (Array.isArray(schema.prefixItems))
        return `[${schema.prefixItems.map((s: Schema) => toType(s, depth)).join(', ')}]`
      return `${wrap(toType(schema.items, depth))}[]`
    case 'object': {
      const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>)
      const required = new Set<string>(schema.required ?? [])
      const pad = '  '.repeat(depth + 1)
      const lines = props.map(([k, s]) => `${pad}${prop(k)}${required.has(k) ? '' : '?'}: ${toType(s, depth + 1)}`)
      const extra = schema.additionalProperties
      if (extra !== undefined && extra !== false)
        lines.push(`${pad}[key: string]: ${extra === true ? 'unknown' : toType(extra, depth + 1)}`)
      else if (extra === undefined && props.length === 0) return 'Record<string, unknown>'
      return lines.length ? `{\n${lines.join('\n')}\n${'  '.repeat(depth)}}` : '{}'
    }
  }
  return 'unknown'
}

export function wrap(t: string): string {
  return /^[\w.[\]"']+$/.test(t) || t.startsWith('{') ? t : `(${t})`
}

export function prop(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)
}

export function safeName(name: string): string {
  return name.replace(/[^\w$]/g, '_')
}
