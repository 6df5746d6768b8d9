/**
 * `routeless build`'s generator: the manifest becomes the module `app-module.ts` describes (its text), or the body
 * of its `create` alone, which start-up evaluates in memory when no fresh module was built. One generator, two
 * moments: both are the same source.
 * @module
 */
import type { HandlerTypes, JsonSchema, Manifest } from '../../runtime/contract/manifest.ts'
import { SERIALIZER_PARAMETERS, serializerSource } from './serializer.ts'
import { schemaKey } from '../../runtime/contract/validators.ts'
import { serializedSchemas } from '../../runtime/contract/stream-item.ts'
import { CODE_ID, manifestKey, type GeneratedApp } from '../../runtime/handlers/app-module.ts'
import type { ValidatorHelpers } from '../../runtime/handlers/generated-validators.ts'
import { handlersSource } from './handler-source.ts'
import { schemasOf, validatorsSource } from './validator-code.ts'

/** The body of `create(rt)`; `handlers`: the code of the handlers' functions by shape (`handlers.ts`), when known. */
export function createSource(manifest: Manifest, handlers: Record<string, string> = {}): string {
  const types = Object.values(manifest.handlers)
  const schemas = schemasOf(types, manifest.$defs)
  return [
    validatorsSource(schemas, manifest.$defs),
    serializersSource(types, manifest.$defs),
    handlersSource(handlers),
    'return { validators, serializers, handlers }',
  ].join('\n')
}

/**
 * `const serializers = { [schemaKey]: factory | null }`: the serializer factory of every return type, declared
 * answer's body and stream's items (`null`: the type says too little for one, `JSON.stringify`-like writing it is).
 */
function serializersSource(handlers: HandlerTypes[], defs: Record<string, JsonSchema>): string {
  const seen = new Set<string>()
  const entries: string[] = []
  for (const returns of handlers.flatMap((types) => serializedSchemas(types, defs))) {
    const key = schemaKey(returns)
    if (seen.has(key)) continue
    seen.add(key)
    const source = serializerSource(returns, defs)
    entries.push(
      source === undefined
        ? `  ${JSON.stringify(key)}: null,`
        : `  ${JSON.stringify(key)}: function (${SERIALIZER_PARAMETERS.join(', ')}) {\n${source}\n},`,
    )
  }
  return `const serializers = {\n${entries.join('\n')}\n}`
}

/** The module `routeless build` writes beside the manifest. */
export function moduleSource(
  manifest: Manifest,
  from = '.routeless/manifest.json',
  handlers: Record<string, string> = {},
): string {
  return [
    `// routeless build: the handlers, their validators and serializers as code. Generated from ${from.replace(/\n/g, ' ')}; do not edit.`,
    `export const routeless = ${JSON.stringify(CODE_ID)}`,
    `export const manifest = ${JSON.stringify(manifestKey(manifest))}`,
    'export function create(rt) {',
    createSource(manifest, handlers),
    '}',
    '',
  ].join('\n')
}

/** The same source, evaluated in memory (development, `--watch`, no build or a stale one). */
export function evaluate(manifest: Manifest, rt: ValidatorHelpers): GeneratedApp {
  return new Function('rt', createSource(manifest))(rt) as GeneratedApp
}
