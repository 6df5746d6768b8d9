/**
 * The `TypeReader` of TypeScript ≥ 7: the native checker behind `typescript/unstable/sync`, a process of its own that
 * answers over a pipe (every checker call is a round trip, so calls take arrays where the API allows). The project is
 * a tsconfig written for the analysis (the controller files, the app's tsconfig extended, the same overrides as the
 * classic backend) and removed when the reader closes.
 *
 * What the unstable API lacks, and how it is bridged:
 * - `getAwaitedType`: awaited by hand (`then`'s `onfulfilled` callback's first parameter, through unions);
 * - `isOptionalParameter` (JSDoc `[x]` in JavaScript): the parameter's `@param` tag, read from the syntax tree;
 * - `getIndexInfoOfType(type, String)`: `getIndexInfosOfType` filtered by a `string` key;
 * - `Symbol.getJsDocTags` and `getDocumentationComment` as display parts: `getJsDocTagsOfSymbol` and
 *   `getDocumentationCommentOfSymbol` give text already;
 * - `isSourceFileFromExternalLibrary` needs the file's tree: an import's target is local when its path has no
 *   `node_modules` and is no declaration file (the classic backend's test, without fetching the tree);
 * - a virtual compiler host (the classic backend's `Blob`/`File` file): real files in a temporary directory.
 * @module
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type * as Ast from 'typescript/unstable/ast'
import type * as Sync from 'typescript/unstable/sync'
import { BLOB_AND_FILE } from '../contract/blob-file.ts'
import {
  type Annotation,
  findConfigFile,
  type ClassInfo,
  kindFlags,
  type MethodInfo,
  type ParameterInfo,
  type PropertyInfo,
  type Tags,
  tagMap,
  type TypeReader,
  type TypeScriptCompiler,
} from './type-reader.ts'

type SyncModule = typeof Sync
type AstModule = typeof Ast
type Type = Sync.Type
type Symbol = Sync.Symbol

export function nativeCompiler(version: string, sync: SyncModule, ast: AstModule): TypeScriptCompiler {
  return { version, backend: 'native', open: (files, cwd) => new NativeReader(version, sync, ast, files, cwd) }
}

/** Options every analysis sets over the app's: read types, emit nothing, check no JavaScript. */
const OVERRIDES = {
  noEmit: true,
  allowJs: true,
  checkJs: false,
  skipLibCheck: true,
  declaration: false,
  composite: false,
  incremental: false,
}

/** The options of a project without a tsconfig (as the classic backend's). */
const DEFAULTS = {
  target: 'es2022',
  module: 'esnext',
  moduleResolution: 'bundler',
  strict: true,
  allowImportingTsExtensions: true,
  esModuleInterop: true,
  lib: ['es2022'],
  types: [],
}

class NativeReader implements TypeReader {
  private readonly api: Sync.API
  private snapshot: Sync.Snapshot | undefined
  private readonly project: Sync.Project
  private readonly checker: Sync.Checker
  private readonly dir: string
  private readonly kinds: [number, number][]

  constructor(
    readonly version: string,
    private readonly sync: SyncModule,
    private readonly ast: AstModule,
    files: string[],
    cwd: string,
  ) {
    this.kinds = kindFlags(sync.TypeFlags)
    this.dir = mkdtempSync(path.join(tmpdir(), 'routeless-analysis-'))
    this.api = new sync.API({ cwd })
    try {
      const config = this.writeConfig(files, cwd)
      const snapshot = (this.snapshot = this.api.updateSnapshot({ openProjects: [config] }))
      const project = snapshot.getProject(config)
      if (!project) throw new Error(`TypeScript ${version} opened no project for ${config}`)
      this.project = project
      this.checker = project.checker
    } catch (error) {
      this.close()
      throw error
    }
  }

  /**
   * The analysis's tsconfig: the app's extended (its `paths`, its module resolution, its `types`), the controllers as
   * its files. Without an app tsconfig, the classic backend's defaults, and routeless's `Blob` and `File` when the
   * library has no DOM.
   */
  private writeConfig(files: string[], cwd: string): string {
    const appConfig = findConfigFile(cwd)
    const options: Record<string, unknown> = { ...(appConfig ? {} : DEFAULTS), ...OVERRIDES }
    let lib: unknown = DEFAULTS.lib
    if (appConfig) {
      const parsed = this.api.parseConfigFile(appConfig).options
      lib = parsed.lib
      // A tsconfig's automatic `@types` are looked up from its own directory: keep the app's, not the temporary one's.
      if (parsed.types === undefined && parsed.typeRoots === undefined) options.typeRoots = typeRoots(appConfig)
    }
    const dom = lib === undefined || (Array.isArray(lib) && lib.some((l) => /(^|lib\.)dom(\.d\.ts)?$/i.test(String(l))))
    const roots = [...files]
    if (!dom) {
      const ambient = path.join(this.dir, 'blob-file.d.ts')
      writeFileSync(ambient, BLOB_AND_FILE)
      roots.push(ambient)
    }
    const config = path.join(this.dir, 'tsconfig.json')
    const json: Record<string, unknown> = { compilerOptions: options, files: roots, include: [] }
    if (appConfig) json.extends = appConfig
    writeFileSync(config, JSON.stringify(json))
    return config
  }

  classes(file: string): ClassInfo[] | undefined {
    const { checker, sync } = this
    const source = this.project.program.getSourceFile(file)
    if (!source) return undefined
    const moduleSymbol = checker.getSymbolAtLocation(source)
    if (!moduleSymbol) return []
    const out: ClassInfo[] = []
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & sync.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      if (!(symbol.flags & sync.SymbolFlags.Class)) continue
      const methods: MethodInfo[] = []
      for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
        const handle = member.valueDeclaration
        if (!handle || handle.kind !== this.ast.SyntaxKind.MethodDeclaration) continue
        const declaration = handle.resolve(this.project) as Ast.MethodDeclaration | undefined
        if (!declaration) continue
        const parameters = declaration.parameters.filter(
          (p) => !(this.ast.isIdentifier(p.name) && p.name.text === 'this'),
        )
        const types = checker.getTypeAtLocation(parameters.map((p) => p.type ?? p))
        methods.push({
          name: member.name,
          doc: this.doc(member),
          parameters: parameters.map((p, i) => this.parameter(p, types[i]!)),
          returns: () => {
            const signature = checker.getSignatureFromDeclaration(declaration)
            return signature && checker.getReturnTypeOfSignature(signature)
          },
        })
      }
      out.push({ name: exported.name, methods })
    }
    return out
  }

  private parameter(p: Ast.ParameterDeclaration, type: Type): ParameterInfo {
    const { ast } = this
    return {
      name: ast.isIdentifier(p.name) ? p.name.text : undefined,
      pattern: ast.isObjectBindingPattern(p.name)
        ? {
            defaulted: p.name.elements.filter((e) => e.initializer).map((e) => (e.propertyName ?? e.name)!.getText()),
          }
        : undefined,
      rest: Boolean(p.dotDotDotToken),
      optional: Boolean(p.questionToken || p.initializer) || this.optionalByJsDoc(p),
      type: type ?? this.checker.getAnyType(),
      annotation: p.type && this.annotation(p.type),
    }
  }

  /** `@param {string} [x]` or `@param {string=} x` in a JavaScript file. */
  private optionalByJsDoc(p: Ast.ParameterDeclaration): boolean {
    const { ast } = this
    if (!ast.isIdentifier(p.name) || !/\.[mc]?jsx?$/.test(p.getSourceFile().fileName)) return false
    const name = p.name.text
    return ast
      .getJSDocTags(p)
      .some(
        (tag) =>
          ast.isJSDocParameterTag(tag) &&
          tag.name.getText() === name &&
          (tag.isBracketed || tag.typeExpression?.getText().endsWith('=') === true),
      )
  }

  private annotation(node: Ast.TypeNode): Annotation {
    const { ast, checker, sync } = this
    const K = ast.SyntaxKind
    if (ast.isParenthesizedTypeNode(node)) return this.annotation(node.type)
    if (ast.isArrayTypeNode(node)) return { kind: 'array', element: this.annotation(node.elementType) }
    if (ast.isTypeReferenceNode(node) && node.typeName.getText() === 'Array' && node.typeArguments?.length === 1)
      return { kind: 'array', element: this.annotation(node.typeArguments[0]!) }
    if (ast.isUnionTypeNode(node)) return { kind: 'union', members: node.types.map((t) => this.annotation(t)) }
    if (ast.isLiteralTypeNode(node) && node.literal.kind === K.NullKeyword) return { kind: 'null' }
    if (node.kind === K.UndefinedKeyword) return { kind: 'undefined' }
    if (!ast.isTypeReferenceNode(node)) return { kind: 'other' }
    return {
      kind: 'ref',
      alias: () => {
        let symbol = checker.getSymbolAtLocation(node.typeName)
        if (symbol && symbol.flags & sync.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
        if (!symbol || !(symbol.flags & sync.SymbolFlags.TypeAlias)) return undefined
        return { name: symbol.name, tags: this.tags(symbol) }
      },
    }
  }

  /** Each a round trip, asked once per symbol or type. */
  private readonly memo = new Map<string, unknown>()

  private once<T>(key: string, id: number, make: () => T): T {
    const k = `${key}:${id}`
    if (this.memo.has(k)) return this.memo.get(k) as T
    const value = make()
    this.memo.set(k, value)
    return value
  }

  private tags(symbol: Symbol): Tags {
    return this.once('tags', symbol.id, () =>
      tagMap(this.checker.getJsDocTagsOfSymbol(symbol).map((t) => ({ name: t.name, text: t.text ?? '' }))),
    )
  }

  private doc(symbol: Symbol): string {
    return this.once('doc', symbol.id, () => this.checker.getDocumentationCommentOfSymbol(symbol).trim())
  }

  imports(file: string): string[] {
    const { ast } = this
    const source = this.project.program.getSourceFile(file)
    if (!source) return []
    const specifiers = source.statements.flatMap((s) =>
      (ast.isImportDeclaration(s) || ast.isExportDeclaration(s)) && s.moduleSpecifier ? [s.moduleSpecifier] : [],
    )
    if (specifiers.length === 0) return []
    const out: string[] = []
    for (const symbol of this.checker.getSymbolAtLocation(specifiers)) {
      const target = symbol?.valueDeclaration
      if (!target || target.kind !== ast.SyntaxKind.SourceFile) continue
      if (/\.d\.[mc]?ts$|\.d\.[^.]+\.ts$/.test(target.path) || target.path.includes('/node_modules/')) continue
      out.push(target.path)
    }
    return out
  }

  kind(type: Type): number {
    let out = 0
    for (const [k, f] of this.kinds) if (type.flags & f) out |= k
    return out
  }

  literal(type: Type): string | number | boolean {
    return (type as Sync.LiteralType).value as string | number | boolean
  }

  members(type: Type): Type[] {
    return [...((type as Sync.UnionOrIntersectionType).getTypes() ?? [])]
  }

  isArray(type: Type): boolean {
    return this.once('array', type.id, () => this.checker.isArrayType(type))
  }

  isTuple(type: Type): boolean {
    return this.once('tuple', type.id, () => this.checker.isTupleType(type))
  }

  typeArguments(type: Type): Type[] {
    return [...this.checker.getTypeArguments(type as Sync.TypeReference)]
  }

  symbolName(type: Type): string | undefined {
    return type.getSymbol()?.name
  }

  alias(type: Type): { name: string; tags: Tags; generic: boolean } | undefined {
    const symbol = type.getAliasSymbol()
    if (!symbol) return undefined
    return { name: symbol.name, tags: this.tags(symbol), generic: type.getAliasTypeArguments().length > 0 }
  }

  symbolTags(type: Type): Tags {
    const symbol = type.getSymbol()
    return symbol ? this.tags(symbol) : {}
  }

  instantiated(type: Type): boolean {
    return type.isTypeReference() && this.checker.getTypeArguments(type).length > 0
  }

  callable(type: Type): boolean {
    return this.once(
      'callable',
      type.id,
      () => this.checker.getSignaturesOfType(type, this.sync.SignatureKind.Call).length > 0,
    )
  }

  properties(type: Type): PropertyInfo[] {
    const { checker, sync, ast } = this
    const symbols = checker.getPropertiesOfType(type)
    if (symbols.length === 0) return []
    const types = checker.getTypeOfSymbol(symbols)
    return symbols.map((prop, i) => {
      const handle = prop.valueDeclaration ?? prop.declarations[0]
      return {
        name: prop.name,
        optional: (prop.flags & sync.SymbolFlags.Optional) !== 0,
        type: types[i] ?? checker.getAnyType(),
        method: handle?.kind === ast.SyntaxKind.MethodDeclaration || handle?.kind === ast.SyntaxKind.MethodSignature,
        doc: this.doc(prop),
        tags: this.tags(prop),
        annotation: () => {
          const node = handle?.resolve(this.project) as { type?: Ast.TypeNode } | undefined
          return node?.type && this.annotation(node.type)
        },
      }
    })
  }

  hasProperty(type: Type, name: string): boolean {
    return this.once(`property ${name}`, type.id, () => this.checker.getPropertyOfType(type, name) !== undefined)
  }

  stringIndex(type: Type): Type | undefined {
    const F = this.sync.TypeFlags
    return this.checker.getIndexInfosOfType(type).find((i) => i.keyType.flags & F.String)?.valueType
  }

  /** What `await` gives: a thenable's `then(onfulfilled)` callback's first parameter, awaited again. */
  awaited(type: Type, depth = 0): Type[] {
    const { checker, sync } = this
    if (depth > 10) return [type]
    if (type.flags & sync.TypeFlags.Union) {
      const out = new Set<Type>()
      for (const member of this.members(type)) for (const t of this.awaited(member, depth + 1)) out.add(t)
      return [...out]
    }
    const then = type.flags & sync.TypeFlags.Object ? checker.getPropertyOfType(type, 'then') : undefined
    if (!then) return [type]
    const [signature] = checker.getSignaturesOfType(checker.getTypeOfSymbol(then) as Type, sync.SignatureKind.Call)
    const onfulfilled = signature && checker.getParameterType(signature, 0)
    const callback = onfulfilled && checker.getNonNullableType(onfulfilled)
    const [called] = callback ? checker.getSignaturesOfType(callback, sync.SignatureKind.Call) : []
    const value = called && checker.getParameterType(called, 0)
    return value ? this.awaited(value, depth + 1) : [type]
  }

  text(type: Type): string {
    return this.checker.typeToString(type)
  }

  /**
   * Ends the checker's process. `api.close()` alone sends it SIGTERM, on which it may print `context canceled` on our
   * stderr (it inherits it) before it exits — a stray line in `routeless check`'s or `build`'s output, now and then.
   * So the snapshot is released first, while the process answers, then the process is killed outright (SIGKILL: it
   * prints nothing), and `close()` is left only the channel to close.
   */
  close(): void {
    try {
      this.snapshot?.dispose()
      this.snapshot = undefined
      const child = (this.api as unknown as { client?: { channel?: { child?: { kill(signal: string): void } } } })
        ?.client?.channel?.child
      child?.kill('SIGKILL')
      this.api?.close()
    } finally {
      rmSync(this.dir, { recursive: true, force: true })
    }
  }
}

/** The `node_modules/@types` folders TypeScript looks in for a tsconfig in `configFile`'s directory. */
function typeRoots(configFile: string): string[] {
  const out: string[] = []
  for (let d = path.dirname(configFile); ; d = path.dirname(d)) {
    const roots = path.join(d, 'node_modules', '@types')
    if (existsSync(roots)) out.push(roots)
    if (path.dirname(d) === d) return out
  }
}
