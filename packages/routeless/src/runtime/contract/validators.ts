/**
 * What the binders ask of the validators of handler types: one validator per schema, and the named types seen
 * through. Two kinds answer: Ajv compiling at start-up (`ajv.ts`, development and tests) and the validators that
 * `routeless build` generated ahead of time (`runtime/handlers/generated-validators.ts`), which load no Ajv and call no `new Function`.
 * This module imports neither.
 * @module
 */
import type { ValidateFunction } from 'ajv'
import type { JsonSchema } from './manifest.ts'
import type { SerializerFactory } from './serializer-runtime.ts'
import type { ParamIssue } from './standard-schema.ts'

export type { ValidateFunction } from 'ajv'

export interface Validators {
  /** Generated ahead of time, the same source evaluated at start-up, or Ajv compiling at start-up. */
  readonly origin: 'generated' | 'evaluated' | 'ajv'
  readonly defs: Record<string, JsonSchema>
  /** The validator of `schema` (its `#/$defs/…` references resolve against the named types). */
  validator(schema: JsonSchema): ValidateFunction
  /** `schema`, or the named type it refers to. */
  deref(schema: JsonSchema): JsonSchema
  /**
   * The serializer factory of every return type of the manifest, by `schemaKey` (`serializer-runtime.ts`): a type
   * missing here is written by the fallback.
   */
  readonly serializers?: Record<string, SerializerFactory | null>
  /** Why a built module there is was not used (start-up warns with it), when it was not. */
  readonly notice?: string
  /** Handler functions generated with them, by the key of their source (`runtime/handlers/handlers.ts`). */
  readonly handlers?: Record<string, Function>
}

export { schemaKey } from './manifest.ts'

/** `schema`, or the named type in `defs` it refers to (through chains of references). */
export function derefIn(defs: Record<string, JsonSchema>, schema: JsonSchema): JsonSchema {
  for (let i = 0; i < 32 && typeof schema.$ref === 'string' && schema.$ref.startsWith('#/$defs/'); i++)
    schema = defs[schema.$ref.slice(8)] ?? {}
  return schema
}

export type Fail = (name: string, reason: string, kind?: ParamIssue['kind'], own?: boolean) => void
