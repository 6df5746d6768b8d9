/**
 * Reads handler signatures from the controllers' TypeScript source with the project's TypeScript checker (aliases,
 * interfaces, imported types, unions, literal unions, arrays, optional `?`, defaults, rest and JSDoc resolve) and
 * writes them as a `Manifest`. Written once against `TypeReader`; the backend follows the project's `typescript`:
 * 5.3–6.x through the classic compiler API (`reader-classic.ts`), ≥ 7 through the native checker of
 * `typescript/unstable/sync` (`reader-native.ts`). Only this module's callers load it, and only when they analyse:
 * production reads the manifest `routeless build` wrote and needs neither `typescript` nor the sources.
 * @module
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseHandlerName } from '../../runtime/base/handler-names.ts'
import { analysisKey, findTypeScript, runsHere } from '../../runtime/contract/analysis-key.ts'
import { fileHashes } from '../../runtime/contract/manifest-file.ts'
import {
  handlerKey,
  MANIFEST_FORMAT,
  type HandlerTypes,
  type JsonSchema,
  type Manifest,
  type PositionalParam,
} from '../../runtime/contract/manifest.ts'
import { streamOf } from './stream-types.ts'
import { socketDecl } from './socket-types.ts'
import { SchemaWriter, Unsupported } from './type-schema.ts'
import { returnDecls, type ReturnDecls } from './answer-types.ts'
import {
  Kind,
  type KeptChecker,
  type MethodInfo,
  type ParameterInfo,
  type TypeHandle,
  type TypeReader,
  type TypeScriptCompiler,
} from './type-reader.ts'

export interface AnalyzeInput {
  /** Absolute path of a controller module. */
  file: string
  /** Its path below the prefix (`v3/glossaries`, `''` for the root). */
  module: string
}

export { analysisKey, analyzerId, findTypeScript, runsHere } from '../../runtime/contract/analysis-key.ts'

/**
 * The `typescript` package the application would import, as a compiler of the backend its major version needs, or
 * undefined when none is installed. `name` is the package to look for (a test points it at an alias such as
 * `typescript-classic`). The classic API is required, not imported: `import()` of its 9 MB of CommonJS first scans
 * it for named exports, which doubles the cost of loading it.
 */
export async function loadTypeScript(cwd: string, name = 'typescript'): Promise<TypeScriptCompiler | undefined> {
  const found = findTypeScript(cwd, name)
  if (!found) return undefined
  const packageRequire = createRequire(found.manifest)
  if (Number(found.version.split('.')[0]) >= 7) {
    const url = (specifier: string) => pathToFileURL(packageRequire.resolve(specifier)).href
    // Bun and Deno: the async API, in a worker, behind a synchronous facade (reader-bridge.ts).
    if (!runsHere(found.version))
      return (await import('./reader-bridge.ts')).bridgedCompiler(found.version, {
        async: url('typescript/unstable/async'),
        ast: url('typescript/unstable/ast'),
      })
    const [{ nativeCompiler }, sync, ast] = await Promise.all([
      import('./reader-native.ts'),
      import(url('typescript/unstable/sync')),
      import(url('typescript/unstable/ast')),
    ])
    return nativeCompiler(found.version, sync, ast)
  }
  const { classicCompiler } = await import('./reader-classic.ts')
  return classicCompiler(packageRequire(path.dirname(found.manifest)))
}

/**
 * Analyses `inputs` with the TypeScript checker: a fresh one of `compiler`, or a kept one (`--watch`,
 * `kept-analysis.ts`). Throws on a JSDoc constraint that is wrong (a developer mistake).
 */
export function analyze(checker: TypeScriptCompiler | KeptChecker, inputs: AnalyzeInput[], cwd: string): Manifest {
  const files = inputs.map((i) => i.file)
  const reader = 'backend' in checker ? checker.open(files, cwd) : checker.open(files)
  try {
    return describeFiles(reader, inputs, cwd)
  } finally {
    reader.close()
  }
}

function describeFiles(reader: TypeReader, inputs: AnalyzeInput[], cwd: string): Manifest {
  const writer = new SchemaWriter(reader)
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    typescript: reader.version,
    analyzer: analysisKey(reader.version, cwd),
    files: {},
    handlers: {},
    $defs: writer.defs,
  }
  const rel = (file: string) => path.relative(cwd, file).split(path.sep).join('/')
  const sha256 = fileHashes()
  const imports = new Map<string, string[]>()
  for (const input of inputs) {
    const classes = reader.classes(input.file)
    if (!classes) continue
    const file = rel(input.file)
    manifest.files[file] = {
      module: input.module,
      sha256: sha256(input.file),
      deps: Object.fromEntries(
        [...localImports(reader, input.file, imports)]
          .map((dep) => [rel(dep), sha256(dep)] as const)
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      ),
    }
    for (const cls of classes) {
      for (const method of cls.methods) {
        if (typeof parseHandlerName(method.name) !== 'object') continue
        const types = describeMethod(reader, writer, method, `${file} (${cls.name}.${method.name})`)
        if (method.doc) types.doc = method.doc
        manifest.handlers[handlerKey(file, cls.name, method.name)] = types
      }
    }
  }
  return manifest
}

/**
 * Local files `file` imports, directly or not (not `node_modules`, not declaration files); `known` holds each file's
 * direct imports, asked once per analysis (controllers share most of their graph).
 */
export function localImports(reader: TypeReader, file: string, known: Map<string, string[]>): Set<string> {
  const out = new Set<string>()
  const self = path.resolve(file)
  const queue = [self]
  for (let next = queue.pop(); next; next = queue.pop()) {
    let deps = known.get(next)
    if (!deps) known.set(next, (deps = reader.imports(next)))
    for (const dep of deps) {
      const name = path.resolve(dep)
      if (name === self || out.has(name)) continue
      out.add(name)
      queue.push(name)
    }
  }
  return out
}

function describeMethod(reader: TypeReader, writer: SchemaWriter, method: MethodInfo, where: string): HandlerTypes {
  const warnings: string[] = []
  const params = [...method.parameters]
  const last = params[params.length - 1]
  const kwargsParam =
    last && !last.rest && (last.pattern || last.name === 'kwargs' || isObjectType(reader, last.type))
      ? params.pop()
      : undefined
  const positional: PositionalParam[] = params.map((p, i) => {
    const name = p.name ?? `arg${i}`
    let schema: JsonSchema = p.rest ? { type: 'array', items: {} } : {}
    try {
      schema = writer.declared(annotationOf(p), p.type)
      if (!isPathValue(p.rest ? (schema.items ?? {}) : schema, writer.defs))
        throw new Unsupported('an object (a path part is one string)')
    } catch (error) {
      if (!(error instanceof Unsupported))
        throw new TypeError(`${where}, parameter ${name}: ${(error as Error).message}`)
      warnings.push(`parameter ${name}: ${error.message} cannot be checked; it is bound as a string`)
      schema = p.rest ? { type: 'array', items: {} } : {}
    }
    return { name, schema, optional: p.optional, rest: p.rest }
  })
  let kwargs: HandlerTypes['kwargs'] = null
  if (kwargsParam) {
    let schema: JsonSchema = {}
    try {
      schema = writer.declared(annotationOf(kwargsParam), kwargsParam.type)
      const object = schema.$ref ? writer.defs[schema.$ref.slice('#/$defs/'.length)] : schema
      if (object && Object.keys(schema).length > 0 && object.type !== 'object')
        throw new Unsupported('a keyword parameter that is not an object')
      // `{ page = 1 }`: a default in the pattern makes the keyword optional.
      if (kwargsParam.pattern && !schema.$ref && Array.isArray(schema.required)) {
        const defaulted = new Set(kwargsParam.pattern.defaulted)
        schema.required = schema.required.filter((r: string) => !defaulted.has(r))
        if (schema.required.length === 0) delete schema.required
      }
    } catch (error) {
      if (!(error instanceof Unsupported))
        throw new TypeError(`${where}, keyword parameter: ${(error as Error).message}`)
      warnings.push(`keyword parameter: ${error.message} cannot be checked`)
      schema = {}
    }
    kwargs = kwargsParam.name !== undefined ? { schema, name: kwargsParam.name } : { schema }
  }
  const streamed = streamOf(reader, writer, method)
  // A stream's other members (`Promise<Records | AsyncGenerator<Sse<E>>>`) are the data it answers besides.
  const answers = streamed
    ? streamed.rest.length
      ? returnDecls(reader, writer, streamed.rest)
      : { returns: null, warnings: [] }
    : returnsOf(reader, writer, method)
  const out: HandlerTypes = { positional, kwargs, returns: answers.returns }
  if (answers.responses) out.responses = answers.responses
  if (streamed) out.stream = streamed.stream
  warnings.push(...answers.warnings)
  const returned = method.name.startsWith('WEBSOCKET') ? method.returns() : undefined
  const socket = returned && socketDecl(reader, writer, returned, (w) => warnings.push(w))
  if (socket) out.socket = socket
  if (warnings.length) out.warnings = warnings
  return out
}

const annotationOf = (p: ParameterInfo) => (p.annotation ? () => p.annotation : undefined)

/** A value one path part can carry: a string, number, boolean, one of several literals, a date. */
function isPathValue(schema: JsonSchema, defs: Record<string, JsonSchema>): boolean {
  if (schema.$ref) return false
  if (schema.anyOf) return schema.anyOf.every((s: JsonSchema) => isPathValue(s, defs))
  const types = [schema.type].flat().filter(Boolean)
  return types.every((t) => t !== 'object' && t !== 'array')
}

function returnsOf(reader: TypeReader, writer: SchemaWriter, method: MethodInfo): ReturnDecls {
  const returned = method.returns()
  if (!returned) return { returns: null, warnings: [] }
  const awaited = isThenable(reader, returned) ? reader.awaited(returned) : [returned]
  return returnDecls(reader, writer, awaited)
}

/**
 * Whether `type` (or a member of its union) may be a promise. Asked first because awaiting relates every return type
 * to `PromiseLike` — a tenth of a cold analysis when a thousand modules return arrays of their own types.
 */
function isThenable(reader: TypeReader, type: TypeHandle): boolean {
  const parts = reader.kind(type) & Kind.Union ? reader.members(type) : [type]
  return parts.some((t) => {
    const k = reader.kind(t)
    return (
      (k & (Kind.Object | Kind.Intersection | Kind.TypeParameter | Kind.Any)) !== 0 &&
      !reader.isArray(t) &&
      !reader.isTuple(t) &&
      (k & Kind.TypeParameter || reader.hasProperty(t, 'then'))
    )
  })
}

/**
 * A last parameter typed as an object (`patch: ServerPatch`) can never be a path part: it takes the keyword
 * arguments, whatever its name. Arrays, dates and primitives (optional or not) stay positional.
 */
function isObjectType(reader: TypeReader, type: TypeHandle): boolean {
  const parts =
    reader.kind(type) & Kind.Union
      ? reader.members(type).filter((t) => !(reader.kind(t) & (Kind.Undefined | Kind.Null)))
      : [type]
  return (
    parts.length > 0 &&
    parts.every(
      (t) =>
        (reader.kind(t) & Kind.Object) !== 0 &&
        !reader.isArray(t) &&
        !reader.isTuple(t) &&
        !reader.callable(t) &&
        !['Date', 'File', 'Blob'].includes(reader.symbolName(t) ?? ''),
    )
  )
}
