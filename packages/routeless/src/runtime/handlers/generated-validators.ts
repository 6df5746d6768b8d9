/**
 * What generated code calls at run time: the helpers Ajv's standalone validators refer to (`ucs2length`, `equal`,
 * the function formats) and the validators' table seen as the binders' `Validators`. Ordinary TypeScript, imported
 * by the generated module's caller and handed to it (the module itself imports nothing).
 * @module
 */
import { FORMATS } from '../contract/formats.ts'
import type { JsonSchema } from '../contract/manifest.ts'
import type { SerializerFactory } from '../contract/serializer-runtime.ts'
import { derefIn, schemaKey, type ValidateFunction, type Validators } from '../contract/validators.ts'

/** The length of a string in code points (a surrogate pair counts once), as `minLength`/`maxLength` count. */
export function ucs2length(text: string): number {
  const len = text.length
  let length = 0
  let pos = 0
  while (pos < len) {
    length++
    const c = text.charCodeAt(pos++)
    if (c >= 0xd800 && c <= 0xdbff && pos < len && (text.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++
  }
  return length
}

/** Deep equality of JSON values (`enum`, `const` and `uniqueItems` of objects and arrays), as fast-deep-equal. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (a.constructor !== b.constructor) return false
    if (Array.isArray(a)) {
      const other = b as unknown[]
      if (a.length !== other.length) return false
      for (let i = a.length; i-- !== 0; ) if (!equal(a[i], other[i])) return false
      return true
    }
    if (a.constructor === RegExp)
      return (a as RegExp).source === (b as RegExp).source && (a as RegExp).flags === (b as RegExp).flags
    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf()
    if (a.toString !== Object.prototype.toString) return a.toString() === b.toString()
    const keys = Object.keys(a)
    if (keys.length !== Object.keys(b).length) return false
    for (const key of keys) if (!Object.hasOwn(b, key)) return false
    for (const key of keys)
      if (!equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false
    return true
  }
  return Number.isNaN(a) && Number.isNaN(b)
}

/** What a generated module's `create` is given. */
export interface ValidatorHelpers {
  ucs2length: typeof ucs2length
  equal: typeof equal
  formats: typeof FORMATS
}

export const VALIDATOR_HELPERS: ValidatorHelpers = { ucs2length, equal, formats: FORMATS }

/** The validators a generated module made, by schema key, as the binders ask for them; and its serializers. */
export class GeneratedValidators implements Validators {
  declare notice?: string
  constructor(
    readonly origin: 'generated' | 'evaluated',
    readonly defs: Record<string, JsonSchema>,
    private readonly table: Record<string, ValidateFunction>,
    readonly serializers: Record<string, SerializerFactory | null>,
    readonly handlers?: Record<string, Function>,
  ) {}

  validator(schema: JsonSchema): ValidateFunction {
    const key = schemaKey(schema)
    const fn = Object.hasOwn(this.table, key) ? this.table[key] : undefined
    if (fn === undefined)
      throw new Error(`No generated validator for the schema ${key.slice(0, 80)}: run \`routeless build\` again`)
    return fn
  }

  deref(schema: JsonSchema): JsonSchema {
    return derefIn(this.defs, schema)
  }
}
