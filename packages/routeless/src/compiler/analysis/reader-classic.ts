/**
 * The `TypeReader` of TypeScript 5.3–6.x: the classic compiler API in this process (`createProgram`, the checker).
 * A program of the controller files with the app's tsconfig; without one, the ES2022 library only, no `@types`, and
 * routeless's own `Blob` and `File`. TypeScript's library files are parsed once per process (a `--watch` reload
 * analyses again without them).
 * @module
 */
import path from 'node:path'
import type ts from 'typescript-classic'
import { BLOB_AND_FILE } from '../../runtime/contract/blob-file.ts'
import { CommonReader, DEFAULT_OPTIONS, hasDom, OVERRIDES, tagMap } from './reader-common.ts'
import type { PropertyInfo, Tags, TypeReader, TypeScriptCompiler } from './type-reader.ts'
import { findConfigFile } from './type-reader.ts'

type TS = typeof ts

export function classicCompiler(ts: TS): TypeScriptCompiler {
  return {
    version: ts.version,
    backend: 'classic',
    open: (files, cwd) => new ClassicReader(ts, createProgram(ts, files, cwd)),
  }
}

class ClassicReader extends CommonReader<ts.Symbol, ts.Type> implements TypeReader {
  readonly version: string
  protected readonly checker: ts.TypeChecker

  constructor(
    private readonly ts: TS,
    private readonly program: ts.Program,
  ) {
    super(ts.TypeFlags, ts.SymbolFlags, ts.SyntaxKind)
    this.version = ts.version
    this.checker = program.getTypeChecker()
  }

  protected sourceFile(file: string): ts.SourceFile | undefined {
    return this.program.getSourceFile(file)
  }

  protected methodDeclaration(member: ts.Symbol): ts.MethodDeclaration | undefined {
    const declaration = member.valueDeclaration
    return declaration && this.ts.isMethodDeclaration(declaration) ? declaration : undefined
  }

  protected parameterTypes(parameters: readonly ts.ParameterDeclaration[]): (index: number) => ts.Type {
    const { checker } = this
    return (i) => {
      const p = parameters[i]!
      return p.type ? checker.getTypeFromTypeNode(p.type) : checker.getTypeAtLocation(p)
    }
  }

  protected optionalByJsDoc(p: ts.ParameterDeclaration): boolean {
    return this.checker.isOptionalParameter(p)
  }

  protected doc(symbol: ts.Symbol): string {
    return this.ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim()
  }

  protected tags(symbol: ts.Symbol): Tags {
    return tagMap(
      symbol
        .getJsDocTags(this.checker)
        .map((t) => ({ name: t.name, text: (t.text ?? []).map((p) => p.text).join('') })),
    )
  }

  protected sourceFiles(specifiers: ts.Expression[]): (string | undefined)[] {
    return specifiers.map((specifier) => {
      const target = this.checker.getSymbolAtLocation(specifier)?.valueDeclaration
      return target && this.ts.isSourceFile(target) ? target.fileName : undefined
    })
  }

  literal(type: ts.Type): string | number | boolean {
    if (type.flags & this.ts.TypeFlags.BooleanLiteral) return this.checker.typeToString(type) === 'true'
    return (type as ts.LiteralType).value as string | number
  }

  members(type: ts.Type): ts.Type[] {
    return (type as ts.UnionOrIntersectionType).types
  }

  isArray(type: ts.Type): boolean {
    return this.checker.isArrayType(type)
  }

  isTuple(type: ts.Type): boolean {
    return this.checker.isTupleType(type)
  }

  alias(type: ts.Type): { name: string; tags: Tags; generic: boolean } | undefined {
    const symbol = type.aliasSymbol
    if (!symbol) return undefined
    return { name: symbol.getName(), tags: this.tags(symbol), generic: Boolean(type.aliasTypeArguments?.length) }
  }

  instantiated(type: ts.Type): boolean {
    return Boolean((type as ts.TypeReference).typeArguments?.length)
  }

  callable(type: ts.Type): boolean {
    return type.getCallSignatures().length > 0
  }

  properties(type: ts.Type): PropertyInfo[] {
    const { ts, checker } = this
    return checker.getPropertiesOfType(type).map((prop) => {
      const declaration = prop.valueDeclaration ?? prop.declarations?.[0]
      const node = declaration && (declaration as { type?: ts.TypeNode }).type
      return {
        name: prop.getName(),
        optional: (prop.flags & ts.SymbolFlags.Optional) !== 0,
        type: declaration ? checker.getTypeOfSymbolAtLocation(prop, declaration) : checker.getTypeOfSymbol(prop),
        method: Boolean(declaration && (ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration))),
        doc: this.doc(prop),
        tags: this.tags(prop),
        annotation: () => node && this.annotation(node),
      }
    })
  }

  hasProperty(type: ts.Type, name: string): boolean {
    return type.getProperty(name) !== undefined
  }

  stringIndex(type: ts.Type): ts.Type | undefined {
    return this.checker.getIndexInfoOfType(type, this.ts.IndexKind.String)?.type
  }

  awaited(type: ts.Type): ts.Type[] {
    return [this.checker.getAwaitedType(type) ?? type]
  }

  close(): void {}
}

/**
 * The program of `files`, with the app's tsconfig when it has one. Without one, the ES2022 library only, and no
 * `@types` packages (DOM's declarations alone are about 12% of a cold analysis; which `@types` load would otherwise
 * depend on the directory the process runs in), plus the two DOM types a signature means something by, `Blob` and
 * `File` (a multipart part), declared in a file of routeless's own.
 */
function createProgram(ts: TS, files: string[], cwd: string): ts.Program {
  const configFile = findConfigFile(cwd)
  const read = configFile && ts.readConfigFile(configFile, ts.sys.readFile)
  const app =
    configFile && read && !read.error
      ? // Named, so that the `types` it lists are looked up from its own directory, as tsc does, not from the process's.
        ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(configFile), undefined, configFile).options
      : ts.convertCompilerOptionsFromJson(DEFAULT_OPTIONS, cwd).options
  const options: ts.CompilerOptions = { ...app, ...OVERRIDES }
  const host = withLibraryCache(ts, ts.createCompilerHost(options))
  if (hasDom(options.lib)) return ts.createProgram(files, options, host)
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
