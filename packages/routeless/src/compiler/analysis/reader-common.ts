/**
 * What the two `TypeReader`s read alike: exported classes, their methods' parameters and annotations, a file's imports,
 * a type's `Kind`, the compiler options. The classic and native APIs name their syntax kinds, flags, tree fields and
 * these checker calls alike (only the numbers differ); `reader-classic.ts` and `reader-native.ts` keep what differs.
 * @module
 */
import { type Annotation, type ClassInfo, Kind, type MethodInfo, type ParameterInfo, type Tags } from './type-reader.ts'

/** The options of a project without a tsconfig, as a tsconfig writes them: the ES2022 library only, no `@types`. */
export const DEFAULT_OPTIONS = {
  target: 'es2022',
  module: 'esnext',
  moduleResolution: 'bundler',
  strict: true,
  allowImportingTsExtensions: true,
  esModuleInterop: true,
  lib: ['es2022'],
  types: [] as string[],
}

/** Options every analysis sets over the app's: read types, emit nothing, check no JavaScript. */
export const OVERRIDES = {
  noEmit: true,
  allowJs: true,
  checkJs: false,
  skipLibCheck: true,
  declaration: false,
  composite: false,
  incremental: false,
}

/** Whether a `lib` option (`dom`, `lib.dom.d.ts`) declares the DOM's types; without one, TypeScript's default does. */
export function hasDom(lib: unknown): boolean {
  return lib === undefined || (Array.isArray(lib) && lib.some((l) => /(^|lib\.)dom(\.d\.ts)?$/i.test(String(l))))
}

/** `@tag text` pairs as `Tags` (the last of a repeated tag wins). */
export function tagMap(tags: readonly { name: string; text: string }[]): Tags {
  const out: Tags = {}
  for (const tag of tags) out[tag.name] = tag.text.trim()
  return out
}

/** A node of either tree, as far as it is read here: each field is read only on the kinds that have it. */
interface Syntax {
  readonly kind: number
  getText(): string
  readonly type?: Syntax
  readonly elementType?: Syntax
  readonly typeName?: Syntax
  readonly typeArguments?: readonly Syntax[]
  readonly types?: readonly Syntax[]
  readonly literal?: Syntax
  readonly text?: string
  readonly elements?: readonly Syntax[]
  readonly propertyName?: Syntax
  readonly name?: Syntax
  readonly dotDotDotToken?: unknown
  readonly questionToken?: unknown
  readonly initializer?: unknown
  readonly statements?: readonly Syntax[]
  readonly moduleSpecifier?: Syntax
}
type ParameterSyntax = Syntax & { readonly name: Syntax }
type MethodSyntax = { readonly parameters: readonly ParameterSyntax[] }

/** The checker calls both APIs make alike (a node is whichever tree's; the native API also takes arrays). */
interface Checker<S, T> {
  getSymbolAtLocation(node: object): S | undefined
  getExportsOfModule(module: S): readonly S[]
  getAliasedSymbol(symbol: S): S
  getDeclaredTypeOfSymbol(symbol: S): T
  getPropertiesOfType(type: T): readonly S[]
  getSignatureFromDeclaration(declaration: object): object | undefined
  getReturnTypeOfSignature(signature: object): T | undefined
  getTypeArguments(type: T): readonly T[]
  typeToString(type: T): string
}

/** The flag and syntax kind names read here, as both compilers name them (each numbers them its own way). */
type Flags<K extends string> = Readonly<Record<K, number>>
type Imports = 'ImportDeclaration' | 'ExportDeclaration'
type TypeNodes = 'ParenthesizedType' | 'ArrayType' | 'TypeReference' | 'UnionType' | 'LiteralType'
type ParameterNames = 'Identifier' | 'ObjectBindingPattern'
type SyntaxKinds = Flags<Imports | ParameterNames | TypeNodes | 'NullKeyword' | 'UndefinedKeyword'>

/** The part of a `TypeReader` both backends share; a backend gives its checker and what its API reads differently. */
export abstract class CommonReader<
  S extends { readonly flags: number; readonly name: string },
  T extends { readonly flags: number; getSymbol(): S | undefined },
> {
  /** Each `Kind` with the bits of the compiler's `TypeFlags` that mean it (a `bigint` literal is a `BigInt`). */
  private readonly kinds: [number, number][]

  constructor(
    typeFlags: Flags<keyof typeof Kind | 'BigIntLiteral'>,
    private readonly symbolFlags: Flags<'Alias' | 'Class' | 'TypeAlias'>,
    private readonly syntax: SyntaxKinds,
  ) {
    this.kinds = Object.entries(Kind).map(([name, kind]) => [
      kind,
      name === 'BigInt' ? typeFlags.BigInt | typeFlags.BigIntLiteral : typeFlags[name as keyof typeof Kind],
    ])
  }

  protected abstract readonly checker: Checker<S, T>
  /** The syntax tree of `file`, when it is in the program. */
  protected abstract sourceFile(file: string): Syntax | undefined
  /** The member's declaration when it is a method declaration (not an arrow-function property). */
  protected abstract methodDeclaration(member: S): MethodSyntax | undefined
  /**
   * The declared or inferred types of a method's parameters, the one at `index` asked for when it is read: the checker
   * numbers types in the order it makes them, and a union's members follow that order, so the calls keep their order.
   */
  protected abstract parameterTypes(parameters: readonly ParameterSyntax[]): (index: number) => T
  /** Optional by JSDoc in a JavaScript file (`@param {string} [x]`). */
  protected abstract optionalByJsDoc(parameter: ParameterSyntax): boolean
  /** The file each module specifier names (undefined where it names no source file: an ambient module, none). */
  protected abstract sourceFiles(specifiers: Syntax[]): (string | undefined)[]
  protected abstract doc(symbol: S): string
  protected abstract tags(symbol: S): Tags

  classes(file: string): ClassInfo[] | undefined {
    const { checker } = this
    const source = this.sourceFile(file)
    if (!source) return undefined
    const moduleSymbol = checker.getSymbolAtLocation(source)
    if (!moduleSymbol) return []
    const out: ClassInfo[] = []
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = this.resolved(exported)
      if (!(symbol.flags & this.symbolFlags.Class)) continue
      const methods: MethodInfo[] = []
      for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
        const declaration = this.methodDeclaration(member)
        if (declaration) methods.push(this.method(member, declaration))
      }
      out.push({ name: exported.name, methods })
    }
    return out
  }

  imports(file: string): string[] {
    const { ImportDeclaration, ExportDeclaration } = this.syntax
    const specifiers = (this.sourceFile(file)?.statements ?? [])
      .filter((s) => s.kind === ImportDeclaration || s.kind === ExportDeclaration)
      .flatMap((s) => s.moduleSpecifier ?? [])
    if (specifiers.length === 0) return []
    // Not a declaration file (TypeScript's test of the name); a workspace package's sources count (their path,
    // symlinks resolved, has no node_modules): their edits matter.
    const local = (f: string | undefined): f is string =>
      f !== undefined && !/\.d\.([mc]?ts|[^/]*\.ts)$/.test(f) && !f.includes('/node_modules/')
    return this.sourceFiles(specifiers).filter(local)
  }

  private method(member: S, declaration: MethodSyntax): MethodInfo {
    const { checker, syntax: K } = this
    const parameters = declaration.parameters.filter((p) => !(p.name.kind === K.Identifier && p.name.text === 'this'))
    const typeOf = this.parameterTypes(parameters)
    return {
      name: member.name,
      doc: this.doc(member),
      parameters: parameters.map((p, i) => this.parameter(p, () => typeOf(i))),
      returns: () => {
        const signature = checker.getSignatureFromDeclaration(declaration)
        return signature && checker.getReturnTypeOfSignature(signature)
      },
    }
  }

  private parameter(p: ParameterSyntax, type: () => T): ParameterInfo {
    const K = this.syntax
    const pattern = p.name.kind === K.ObjectBindingPattern ? p.name.elements!.filter((e) => e.initializer) : undefined
    return {
      name: p.name.kind === K.Identifier ? p.name.text : undefined,
      pattern: pattern && { defaulted: pattern.map((e) => (e.propertyName ?? e.name)!.getText()) },
      rest: Boolean(p.dotDotDotToken),
      optional: Boolean(p.questionToken || p.initializer) || this.optionalByJsDoc(p),
      // The declared type (its annotation's, so properties keep their JSDoc), else the inferred one.
      type: type(),
      annotation: p.type && this.annotation(p.type),
    }
  }

  protected annotation(node: Syntax): Annotation {
    const K = this.syntax
    if (node.kind === K.ParenthesizedType) return this.annotation(node.type!)
    if (node.kind === K.ArrayType) return { kind: 'array', element: this.annotation(node.elementType!) }
    if (node.kind === K.TypeReference && node.typeName!.getText() === 'Array' && node.typeArguments?.length === 1)
      return { kind: 'array', element: this.annotation(node.typeArguments[0]!) }
    if (node.kind === K.UnionType) return { kind: 'union', members: node.types!.map((t) => this.annotation(t)) }
    if (node.kind === K.LiteralType && node.literal!.kind === K.NullKeyword) return { kind: 'null' }
    if (node.kind === K.UndefinedKeyword) return { kind: 'undefined' }
    if (node.kind !== K.TypeReference) return { kind: 'other' }
    const { typeName } = node
    return {
      kind: 'ref',
      alias: () => {
        const found = this.checker.getSymbolAtLocation(typeName!)
        const symbol = found && this.resolved(found)
        if (!symbol || !(symbol.flags & this.symbolFlags.TypeAlias)) return undefined
        return { name: symbol.name, tags: this.tags(symbol) }
      },
    }
  }

  /** The symbol an alias (an import, `export { X as Y }`) stands for; any other symbol itself. */
  private resolved(symbol: S): S {
    return symbol.flags & this.symbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol
  }

  kind(type: T): number {
    let out = 0
    for (const [k, f] of this.kinds) if (type.flags & f) out |= k
    return out
  }

  typeArguments(type: T): T[] {
    return [...this.checker.getTypeArguments(type)]
  }

  symbolName(type: T): string | undefined {
    return type.getSymbol()?.name
  }

  symbolTags(type: T): Tags {
    const symbol = type.getSymbol()
    return symbol ? this.tags(symbol) : {}
  }

  text(type: T): string {
    return this.checker.typeToString(type)
  }
}
