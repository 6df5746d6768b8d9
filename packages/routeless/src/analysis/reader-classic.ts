/**
 * The `TypeReader` of TypeScript 5.3–6.x: the classic compiler API in this process (`createProgram`, the checker).
 * A program of the controller files with the app's tsconfig; without one, the ES2022 library only, no `@types`, and
 * routeless's own `Blob` and `File`. TypeScript's library files are parsed once per process (a `--watch` reload
 * analyses again without them).
 * @module
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import type ts from 'typescript-classic'
import { BLOB_AND_FILE } from '../contract/blob-file.ts'
import {
  type Annotation,
  type ClassInfo,
  kindFlags,
  type ParameterInfo,
  type PropertyInfo,
  type Tags,
  tagMap,
  type TypeReader,
  type TypeScriptCompiler,
} from './type-reader.ts'

type TS = typeof ts

export function classicCompiler(ts: TS): TypeScriptCompiler {
  return {
    version: ts.version,
    backend: 'classic',
    open: (files, cwd) => new ClassicReader(ts, createProgram(ts, files, cwd)),
  }
}

class ClassicReader implements TypeReader {
  readonly version: string
  private readonly checker: ts.TypeChecker
  private readonly kinds: [number, number][]

  constructor(
    private readonly ts: TS,
    private readonly program: ts.Program,
  ) {
    this.version = ts.version
    this.checker = program.getTypeChecker()
    this.kinds = kindFlags(ts.TypeFlags)
  }

  classes(file: string): ClassInfo[] | undefined {
    const { ts, checker } = this
    const source = this.program.getSourceFile(file)
    if (!source) return undefined
    const moduleSymbol = checker.getSymbolAtLocation(source)
    if (!moduleSymbol) return []
    const out: ClassInfo[] = []
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      if (!(symbol.flags & ts.SymbolFlags.Class)) continue
      const methods = []
      for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
        const declaration = member.valueDeclaration
        if (!declaration || !ts.isMethodDeclaration(declaration)) continue
        methods.push({
          name: member.getName(),
          doc: ts.displayPartsToString(member.getDocumentationComment(checker)).trim(),
          parameters: declaration.parameters
            .filter((p) => !(ts.isIdentifier(p.name) && p.name.text === 'this'))
            .map((p) => this.parameter(p)),
          returns: () => {
            const signature = checker.getSignatureFromDeclaration(declaration)
            return signature && checker.getReturnTypeOfSignature(signature)
          },
        })
      }
      out.push({ name: exported.getName(), methods })
    }
    return out
  }

  private parameter(p: ts.ParameterDeclaration): ParameterInfo {
    const { ts, checker } = this
    return {
      name: ts.isIdentifier(p.name) ? p.name.text : undefined,
      pattern: ts.isObjectBindingPattern(p.name)
        ? { defaulted: p.name.elements.filter((e) => e.initializer).map((e) => (e.propertyName ?? e.name).getText()) }
        : undefined,
      rest: Boolean(p.dotDotDotToken),
      optional: Boolean(p.questionToken || p.initializer) || checker.isOptionalParameter(p),
      // The declared type (its annotation's, so properties keep their JSDoc), else the inferred one.
      type: p.type ? checker.getTypeFromTypeNode(p.type) : checker.getTypeAtLocation(p),
      annotation: p.type && this.annotation(p.type),
    }
  }

  private annotation(node: ts.TypeNode): Annotation {
    const { ts, checker } = this
    if (ts.isParenthesizedTypeNode(node)) return this.annotation(node.type)
    if (ts.isArrayTypeNode(node)) return { kind: 'array', element: this.annotation(node.elementType) }
    if (ts.isTypeReferenceNode(node) && node.typeName.getText() === 'Array' && node.typeArguments?.length === 1)
      return { kind: 'array', element: this.annotation(node.typeArguments[0]!) }
    if (ts.isUnionTypeNode(node)) return { kind: 'union', members: node.types.map((t) => this.annotation(t)) }
    if (ts.isLiteralTypeNode(node) && node.literal.kind === ts.SyntaxKind.NullKeyword) return { kind: 'null' }
    if (node.kind === ts.SyntaxKind.UndefinedKeyword) return { kind: 'undefined' }
    if (!ts.isTypeReferenceNode(node)) return { kind: 'other' }
    return {
      kind: 'ref',
      alias: () => {
        let symbol = checker.getSymbolAtLocation(node.typeName)
        if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
        if (!symbol || !(symbol.flags & ts.SymbolFlags.TypeAlias)) return undefined
        return { name: symbol.getName(), tags: this.tags(symbol) }
      },
    }
  }

  private tags(symbol: ts.Symbol): Tags {
    return tagMap(
      symbol
        .getJsDocTags(this.checker)
        .map((t) => ({ name: t.name, text: (t.text ?? []).map((p) => p.text).join('') })),
    )
  }

  imports(file: string): string[] {
    const { ts, checker } = this
    const source = this.program.getSourceFile(file)
    const out: string[] = []
    for (const statement of source?.statements ?? []) {
      const specifier =
        ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined
      if (!specifier) continue
      const target = checker.getSymbolAtLocation(specifier)?.valueDeclaration
      const dep = target && ts.isSourceFile(target) ? target : undefined
      // A workspace package's sources count (its path, symlinks resolved, has no node_modules): their edits matter.
      if (!dep || dep.isDeclarationFile || dep.fileName.includes('/node_modules/')) continue
      out.push(dep.fileName)
    }
    return out
  }

  kind(type: ts.Type): number {
    let out = 0
    for (const [k, f] of this.kinds) if (type.flags & f) out |= k
    return out
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

  typeArguments(type: ts.Type): ts.Type[] {
    return [...this.checker.getTypeArguments(type as ts.TypeReference)]
  }

  symbolName(type: ts.Type): string | undefined {
    return type.getSymbol()?.getName()
  }

  alias(type: ts.Type): { name: string; tags: Tags; generic: boolean } | undefined {
    const symbol = type.aliasSymbol
    if (!symbol) return undefined
    return { name: symbol.getName(), tags: this.tags(symbol), generic: Boolean(type.aliasTypeArguments?.length) }
  }

  symbolTags(type: ts.Type): Tags {
    const symbol = type.getSymbol()
    return symbol ? this.tags(symbol) : {}
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
        doc: ts.displayPartsToString(prop.getDocumentationComment(checker)).trim(),
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

  text(type: ts.Type): string {
    return this.checker.typeToString(type)
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
