/**
 * Reads handler signatures from the controllers' TypeScript source with the compiler API (the checker: aliases,
 * interfaces, imported types, unions, literal unions, arrays, optional `?`, defaults, rest and JSDoc resolve) and
 * writes them as a `Manifest`. The only module that imports `typescript`, and only when it is called: production
 * reads the manifest `routeless build` wrote and needs neither `typescript` nor the sources.
 * @module
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type ts from 'typescript'
import { parseHandlerName } from '../base/handler-names.ts'
import { applyConstraints, SchemaWriter, Unsupported } from './type-schema.ts'
import { createHash } from 'node:crypto'
import { fileHashes } from './manifest-file.ts'
import {
  handlerKey,
  MANIFEST_FORMAT,
  type HandlerTypes,
  type JsonSchema,
  type Manifest,
  type PositionalParam,
} from './manifest.ts'

type TS = typeof ts

export interface AnalyzeInput {
  /** Absolute path of a controller module. */
  file: string
  /** Its path below the prefix (`v3/glossaries`, `''` for the root). */
  module: string
}

let id: string | undefined

/**
 * Names this analyser's code (its functions' own source, so it is the same from `src` and from a bundle): a manifest
 * another version wrote is read again instead of trusted — the schemas it holds may say less than this one would.
 */
export function analyzerId(): string {
  return (id ??= createHash('sha256')
    .update([analyze, describeMethod, SchemaWriter, applyConstraints].map(String).join('\n'))
    .digest('hex')
    .slice(0, 16))
}

/**
 * `typescript` as the application would import it (its own install first), or undefined when it is not installed.
 * Required, not imported: `import()` of its 9 MB of CommonJS first scans it for named exports, which doubles the
 * cost of loading it (0.4 s against 0.8 s here, more under a loader such as tsx).
 */
export async function loadTypeScript(cwd: string): Promise<TS | undefined> {
  for (const from of [path.join(cwd, 'package.json'), import.meta.url]) {
    try {
      return createRequire(from)('typescript') as TS
    } catch {
      // not installed there
    }
  }
  return undefined
}

/** Analyses `inputs` with the TypeScript checker. Throws on a JSDoc constraint that is wrong (a developer mistake). */
export function analyze(ts: TS, inputs: AnalyzeInput[], cwd: string): Manifest {
  const program = createProgram(
    ts,
    inputs.map((i) => i.file),
    cwd,
  )
  const checker = program.getTypeChecker()
  const writer = new SchemaWriter(ts, checker)
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    typescript: ts.version,
    analyzer: analyzerId(),
    files: {},
    handlers: {},
    $defs: writer.defs,
  }
  const rel = (file: string) => path.relative(cwd, file).split(path.sep).join('/')
  const sha256 = fileHashes()
  for (const input of inputs) {
    const source = program.getSourceFile(input.file)
    if (!source) continue
    const file = rel(input.file)
    manifest.files[file] = {
      module: input.module,
      sha256: sha256(input.file),
      deps: Object.fromEntries([...localImports(ts, program, checker, source)].map((dep) => [rel(dep), sha256(dep)])),
    }
    const moduleSymbol = checker.getSymbolAtLocation(source)
    if (!moduleSymbol) continue
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      if (!(symbol.flags & ts.SymbolFlags.Class)) continue
      const instance = checker.getDeclaredTypeOfSymbol(symbol)
      for (const member of checker.getPropertiesOfType(instance)) {
        if (typeof parseHandlerName(member.getName()) !== 'object') continue
        const declaration = member.valueDeclaration
        if (!declaration || !ts.isMethodDeclaration(declaration)) continue
        const types = describeMethod(
          ts,
          checker,
          writer,
          declaration,
          `${file} (${exported.getName()}.${member.getName()})`,
        )
        const doc = ts.displayPartsToString(member.getDocumentationComment(checker)).trim()
        if (doc) types.doc = doc
        manifest.handlers[handlerKey(file, exported.getName(), member.getName())] = types
      }
    }
  }
  return manifest
}

/** The application's tsconfig (its `paths`, module resolution), made to analyse: no emit, JS with JSDoc types. */
/**
 * The program of `files`, with the app's tsconfig when it has one. Without one, the ES2022 library only, and no
 * `@types` packages (DOM's declarations alone are about 12% of a cold analysis; which `@types` load would otherwise
 * depend on the directory the process runs in), plus the two DOM types a signature means something by, `Blob` and
 * `File` (a multipart part), declared in a file of routeless's own.
 */
function createProgram(ts: TS, files: string[], cwd: string): ts.Program {
  const configFile = ts.findConfigFile(cwd, ts.sys.fileExists)
  let options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    allowImportingTsExtensions: true,
    esModuleInterop: true,
    lib: ['lib.es2022.d.ts'],
    types: [],
  }
  if (configFile && existsSync(configFile)) {
    const read = ts.readConfigFile(configFile, ts.sys.readFile)
    if (!read.error) options = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configFile)).options
  }
  options = {
    ...options,
    noEmit: true,
    allowJs: true,
    checkJs: false,
    skipLibCheck: true,
    declaration: false,
    composite: false,
    incremental: false,
  }
  const dom = options.lib === undefined || options.lib.some((l) => /lib\.dom\.d\.ts$/i.test(l) || /^dom$/i.test(l))
  const host = withLibraryCache(ts, ts.createCompilerHost(options))
  if (dom) return ts.createProgram(files, options, host)
  const ambient = path.join(cwd, '__routeless_blob_file__.d.ts')
  const { getSourceFile, fileExists, readFile } = host
  host.getSourceFile = (name, version, ...rest) =>
    path.resolve(name) === ambient
      ? ts.createSourceFile(name, BLOB_AND_FILE, version)
      : getSourceFile.call(host, name, version, ...rest)
  host.fileExists = (name) => path.resolve(name) === ambient || fileExists.call(host, name)
  host.readFile = (name) => (path.resolve(name) === ambient ? BLOB_AND_FILE : readFile.call(host, name))
  return ts.createProgram([...files, ambient], options, host)
}

/** TypeScript's own library files, parsed once per process (a `--watch` reload analyses again without them). */
const libraries = new Map<string, ts.SourceFile>()

function withLibraryCache(ts: TS, host: ts.CompilerHost): ts.CompilerHost {
  const libDir = path.dirname(ts.getDefaultLibFilePath({}))
  const { getSourceFile } = host
  host.getSourceFile = (name, version, ...rest) => {
    if (path.dirname(path.resolve(name)) !== libDir) return getSourceFile.call(host, name, version, ...rest)
    const key = `${typeof version === 'object' ? JSON.stringify(version) : version}:${name}`
    let file = libraries.get(key)
    if (!file) {
      file = getSourceFile.call(host, name, version, ...rest)
      if (file) libraries.set(key, file)
    }
    return file
  }
  return host
}

/** `Blob` and `File` for programs without DOM's library (unless `@types/node` declares them already: then merged). */
const BLOB_AND_FILE = `
interface Blob { readonly size: number; readonly type: string; arrayBuffer(): Promise<ArrayBuffer>; text(): Promise<string> }
declare var Blob: { prototype: Blob; new (parts?: unknown[], options?: { type?: string }): Blob }
interface File extends Blob { readonly name: string; readonly lastModified: number }
declare var File: { prototype: File; new (parts: unknown[], name: string, options?: { type?: string; lastModified?: number }): File }
`

/** Local files `source` imports, directly or not (not `node_modules`, not the standard library). */
function localImports(ts: TS, program: ts.Program, checker: ts.TypeChecker, source: ts.SourceFile): Set<string> {
  const out = new Set<string>()
  const queue = [source]
  for (let sf = queue.pop(); sf; sf = queue.pop()) {
    for (const statement of sf.statements) {
      const specifier =
        ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined
      if (!specifier) continue
      const target = checker.getSymbolAtLocation(specifier)?.valueDeclaration
      const file = target && ts.isSourceFile(target) ? target : undefined
      if (
        !file ||
        file.isDeclarationFile ||
        program.isSourceFileFromExternalLibrary(file) ||
        file.fileName.includes('/node_modules/')
      )
        continue
      const name = path.resolve(file.fileName)
      if (name === path.resolve(source.fileName) || out.has(name)) continue
      out.add(name)
      queue.push(file)
    }
  }
  return out
}

function describeMethod(
  ts: TS,
  checker: ts.TypeChecker,
  writer: SchemaWriter,
  method: ts.MethodDeclaration,
  where: string,
): HandlerTypes {
  const warnings: string[] = []
  // A `this: Controller` parameter types `this` only: TypeScript erases it, and no request fills it.
  const params = method.parameters.filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'))
  const last = params[params.length - 1]
  const kwargsParam =
    last &&
    !last.dotDotDotToken &&
    (ts.isObjectBindingPattern(last.name) ||
      (ts.isIdentifier(last.name) && last.name.text === 'kwargs') ||
      isObjectType(ts, checker, typeOf(checker, last)))
      ? params.pop()
      : undefined
  const positional: PositionalParam[] = params.map((p, i) => {
    const name = ts.isIdentifier(p.name) ? p.name.text : `arg${i}`
    const rest = Boolean(p.dotDotDotToken)
    const optional = Boolean(p.questionToken || p.initializer) || checker.isOptionalParameter(p)
    let schema: JsonSchema = rest ? { type: 'array', items: {} } : {}
    try {
      schema = writer.declared(p, typeOf(checker, p), p)
      if (!isPathValue(rest ? (schema.items ?? {}) : schema, writer.defs))
        throw new Unsupported('an object (a path part is one string)')
    } catch (error) {
      if (!(error instanceof Unsupported))
        throw new TypeError(`${where}, parameter ${name}: ${(error as Error).message}`)
      warnings.push(`parameter ${name}: ${error.message} cannot be checked; it is bound as a string`)
      schema = rest ? { type: 'array', items: {} } : {}
    }
    return { name, schema, optional, rest }
  })
  let kwargs: HandlerTypes['kwargs'] = null
  if (kwargsParam) {
    let schema: JsonSchema = {}
    try {
      schema = writer.declared(kwargsParam, typeOf(checker, kwargsParam), kwargsParam)
      const object = schema.$ref ? writer.defs[schema.$ref.slice('#/$defs/'.length)] : schema
      if (object && Object.keys(schema).length > 0 && object.type !== 'object')
        throw new Unsupported('a keyword parameter that is not an object')
      // `{ page = 1 }`: a default in the pattern makes the keyword optional.
      if (ts.isObjectBindingPattern(kwargsParam.name) && !schema.$ref && Array.isArray(schema.required)) {
        const defaulted = new Set(
          kwargsParam.name.elements.filter((e) => e.initializer).map((e) => (e.propertyName ?? e.name).getText()),
        )
        schema.required = schema.required.filter((r: string) => !defaulted.has(r))
        if (schema.required.length === 0) delete schema.required
      }
    } catch (error) {
      if (!(error instanceof Unsupported))
        throw new TypeError(`${where}, keyword parameter: ${(error as Error).message}`)
      warnings.push(`keyword parameter: ${error.message} cannot be checked`)
      schema = {}
    }
    kwargs = ts.isIdentifier(kwargsParam.name) ? { schema, name: kwargsParam.name.text } : { schema }
  }
  const out: HandlerTypes = { positional, kwargs, returns: returnSchema(ts, checker, writer, method) }
  if (warnings.length) out.warnings = warnings
  return out
}

/** A parameter's declared type (its annotation's, so properties keep their JSDoc), else the inferred one. */
function typeOf(checker: ts.TypeChecker, p: ts.ParameterDeclaration): ts.Type {
  return p.type ? checker.getTypeFromTypeNode(p.type) : checker.getTypeAtLocation(p)
}

/** A value one path part can carry: a string, number, boolean, one of several literals, a date. */
function isPathValue(schema: JsonSchema, defs: Record<string, JsonSchema>): boolean {
  if (schema.$ref) return false
  if (schema.anyOf) return schema.anyOf.every((s: JsonSchema) => isPathValue(s, defs))
  const types = [schema.type].flat().filter(Boolean)
  return types.every((t) => t !== 'object' && t !== 'array')
}

function returnSchema(
  ts: TS,
  checker: ts.TypeChecker,
  writer: SchemaWriter,
  method: ts.MethodDeclaration,
): JsonSchema | null {
  const signature = checker.getSignatureFromDeclaration(method)
  if (!signature) return null
  const returned = checker.getReturnTypeOfSignature(signature)
  const awaited = isThenable(ts, checker, returned) ? (checker.getAwaitedType(returned) ?? returned) : returned
  if (
    awaited.flags &
    (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)
  )
    return null
  try {
    return writer.schema(awaited, method)
  } catch {
    return null // a Response, bytes, a stream, a generator: documented as they are, not as a schema
  }
}

/**
 * Whether `type` (or a member of its union) may be a promise. Asked first because `getAwaitedType` relates every
 * return type to `PromiseLike` — a tenth of a cold analysis when a thousand modules return arrays of their own types.
 */
function isThenable(ts: TS, checker: ts.TypeChecker, type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type]
  return parts.some(
    (t) =>
      (t.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection | ts.TypeFlags.TypeParameter | ts.TypeFlags.Any)) !==
        0 &&
      !checker.isArrayType(t) &&
      !checker.isTupleType(t) &&
      (t.flags & ts.TypeFlags.TypeParameter || t.getProperty('then') !== undefined),
  )
}

/**
 * A last parameter typed as an object (`patch: ServerPatch`) can never be a path part: it takes the keyword
 * arguments, whatever its name. Arrays, dates and primitives (optional or not) stay positional.
 */
function isObjectType(ts: TS, checker: ts.TypeChecker, type: ts.Type): boolean {
  const parts = type.isUnion()
    ? type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)))
    : [type]
  return (
    parts.length > 0 &&
    parts.every(
      (t) =>
        (t.flags & ts.TypeFlags.Object) !== 0 &&
        !checker.isArrayType(t) &&
        !checker.isTupleType(t) &&
        t.getCallSignatures().length === 0 &&
        !['Date', 'File', 'Blob'].includes(t.getSymbol()?.getName() ?? ''),
    )
  )
}
