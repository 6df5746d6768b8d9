/**
 * The `TypeReader` of TypeScript ≥ 7: the native checker behind `typescript/unstable/sync`, a process of its own that
 * answers over a pipe (every checker call is a round trip, so calls take arrays where the API allows). The process and
 * its project (a tsconfig written for the analysis) are a session's (`native-session.ts`): one per analysis, or one
 * kept across `--watch` reloads and updated with the files that changed.
 *
 * What the unstable API lacks, and how it is bridged:
 * - `getAwaitedType`: awaited by hand (`then`'s `onfulfilled` callback's first parameter, through unions);
 * - `isOptionalParameter` (JSDoc `[x]` in JavaScript): the parameter's `@param` tag, read from the syntax tree;
 * - `getIndexInfoOfType(type, String)`: `getIndexInfosOfType` filtered by a `string` key;
 * - `Symbol.getJsDocTags` and `getDocumentationComment` as display parts: `getJsDocTagsOfSymbol` and
 *   `getDocumentationCommentOfSymbol` give text already;
 * - `isSourceFileFromExternalLibrary` needs the file's tree: an import's target is local when its path has no
 *   `node_modules` and names no declaration file (`reader-common.ts`, for both backends, without fetching the tree);
 * - a virtual compiler host (the classic backend's `Blob`/`File` file): real files in a temporary directory
 *   (`native-session.ts`).
 * @module
 */
import type * as Ast from 'typescript/unstable/ast'
import type * as Sync from 'typescript/unstable/sync'
import { NativeSession, type SessionHooks } from './native-session.ts'
import { CommonReader, tagMap } from './reader-common.ts'
import type { KeptChecker, PropertyInfo, Tags, TypeReader, TypeScriptCompiler } from './type-reader.ts'

type SyncModule = typeof Sync
type AstModule = typeof Ast
type Type = Sync.Type
type Symbol = Sync.Symbol

/**
 * TypeScript ≥ 7 as a compiler: `open` starts a checker process for one analysis (stopped when its reader closes);
 * `keep` starts one for many (`--watch`), updated with the files changed before each (`native-session.ts`).
 */
export function nativeCompiler(
  version: string,
  sync: SyncModule,
  ast: AstModule,
  hooks: SessionHooks = {},
): TypeScriptCompiler & { keep(cwd: string): KeptChecker } {
  const reader = (project: Sync.Project, release: () => void) => new NativeReader(version, sync, ast, project, release)
  return {
    version,
    backend: 'native',
    open(files, cwd) {
      const session = new NativeSession(version, sync, cwd, hooks)
      try {
        return reader(session.open(files), () => session.close())
      } catch (error) {
        session.close()
        throw error
      }
    },
    keep(cwd) {
      const session = new NativeSession(version, sync, cwd, hooks, true)
      return {
        open: (files) => reader(session.open(files), () => session.idle()),
        warm: () => session.warm(),
        close: () => session.close(),
      }
    },
  }
}

/** The checker's answers over one project of a session; `close` releases it (and, for one analysis, the session). */
class NativeReader extends CommonReader<Symbol, Type> implements TypeReader {
  protected readonly checker: Sync.Checker

  constructor(
    readonly version: string,
    private readonly sync: SyncModule,
    private readonly ast: AstModule,
    private readonly project: Sync.Project,
    private readonly release: () => void,
  ) {
    super(sync.TypeFlags, sync.SymbolFlags, ast.SyntaxKind)
    this.checker = project.checker
  }

  protected sourceFile(file: string): Ast.SourceFile | undefined {
    return this.project.program.getSourceFile(file)
  }

  protected methodDeclaration(member: Symbol): Ast.MethodDeclaration | undefined {
    const handle = member.valueDeclaration
    if (!handle || handle.kind !== this.ast.SyntaxKind.MethodDeclaration) return undefined
    return handle.resolve(this.project) as Ast.MethodDeclaration | undefined
  }

  /** One round trip for all of them. */
  protected parameterTypes(parameters: readonly Ast.ParameterDeclaration[]): (index: number) => Type {
    const types = this.checker.getTypeAtLocation(parameters.map((p) => p.type ?? p))
    return (i) => types[i] ?? this.checker.getAnyType()
  }

  /** `@param {string} [x]` or `@param {string=} x` in a JavaScript file. */
  protected optionalByJsDoc(p: Ast.ParameterDeclaration): boolean {
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

  /** Each a round trip, asked once per symbol or type. */
  private readonly memo = new Map<string, unknown>()

  private once<T>(key: string, id: number, make: () => T): T {
    const k = `${key}:${id}`
    if (this.memo.has(k)) return this.memo.get(k) as T
    const value = make()
    this.memo.set(k, value)
    return value
  }

  protected tags(symbol: Symbol): Tags {
    return this.once('tags', symbol.id, () =>
      tagMap(this.checker.getJsDocTagsOfSymbol(symbol).map((t) => ({ name: t.name, text: t.text ?? '' }))),
    )
  }

  protected doc(symbol: Symbol): string {
    return this.once('doc', symbol.id, () => this.checker.getDocumentationCommentOfSymbol(symbol).trim())
  }

  /** One round trip for all of them. */
  protected sourceFiles(specifiers: Ast.Expression[]): (string | undefined)[] {
    return this.checker.getSymbolAtLocation(specifiers).map((symbol) => {
      const target = symbol?.valueDeclaration
      return target?.kind === this.ast.SyntaxKind.SourceFile ? target.path : undefined
    })
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

  alias(type: Type): { name: string; tags: Tags; generic: boolean } | undefined {
    const symbol = type.getAliasSymbol()
    if (!symbol) return undefined
    return { name: symbol.name, tags: this.tags(symbol), generic: type.getAliasTypeArguments().length > 0 }
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

  close(): void {
    this.memo.clear()
    this.release()
  }
}
