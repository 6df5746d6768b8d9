/**
 * What the signature analysis asks of a TypeScript checker, written once for both backends: `reader-classic.ts`
 * (TypeScript 5.3–6.x, the compiler API in-process) and `reader-native.ts` (TypeScript ≥ 7, the native checker behind
 * `typescript/unstable/sync`). `analyze.ts` and `type-schema.ts` see only this: types are opaque handles, their
 * kinds one flag set of our own (the two compilers number `TypeFlags` differently), declarations plain objects.
 * @module
 */

/** A type as one backend's checker resolved it: opaque here, the same object for the same type within one analysis. */
export type TypeHandle = object

/** The kinds of type the schema tells apart (a type may have several: `boolean` is `Boolean | Union`). */
export const Kind = {
  Any: 1,
  Unknown: 2,
  Never: 4,
  String: 8,
  Number: 16,
  Boolean: 32,
  Null: 64,
  StringLiteral: 128,
  NumberLiteral: 256,
  BooleanLiteral: 512,
  BigInt: 1024,
  Undefined: 2048,
  Void: 4096,
  Union: 8192,
  Intersection: 16384,
  Object: 32768,
  TypeParameter: 65536,
} as const

/** JSDoc tags by name, their text trimmed (`@minimum 1` → `{ minimum: '1' }`). */
export type Tags = Record<string, string>

/**
 * A declaration's type annotation as far as the schema reads it: the JSDoc constraints of a type alias it names
 * (`page: Page`, `Label[]`, `Array<Label>`, `Page | null`), which the checker does not keep on a primitive's type.
 */
export type Annotation =
  | { kind: 'array'; element: Annotation }
  | { kind: 'union'; members: Annotation[] }
  | { kind: 'null' | 'undefined' | 'other' }
  /** A type reference: `alias()` is the type alias it names with its tags, or undefined (an interface, a class). */
  | { kind: 'ref'; alias: () => { name: string; tags: Tags } | undefined }

/** A property of an object type. */
export interface PropertyInfo {
  name: string
  /** `x?:` */
  optional: boolean
  type: TypeHandle
  /** Declared as a method (`f(): void`, not `f: () => void`). */
  method: boolean
  doc: string
  tags: Tags
  /** Its declaration's annotation, read when asked (it may load the declaring file's syntax tree). */
  annotation: () => Annotation | undefined
}

/** A parameter of a handler method. */
export interface ParameterInfo {
  /** The identifier's text; undefined for a destructuring pattern. */
  name: string | undefined
  /** `{ a, b }`: the names of the pattern's elements that have a default (`{ page = 1 }`). */
  pattern: { defaulted: string[] } | undefined
  rest: boolean
  /** `x?`, `x = 1`, or optional by JSDoc (`@param {string} [x]`). */
  optional: boolean
  type: TypeHandle
  annotation: Annotation | undefined
}

/** A method of an exported class. */
export interface MethodInfo {
  name: string
  /** Its JSDoc text. */
  doc: string
  /** Without a `this:` parameter (TypeScript erases it; no request fills it). */
  parameters: ParameterInfo[]
  /** The declared or inferred return type; undefined when there is no signature. */
  returns: () => TypeHandle | undefined
}

export interface ClassInfo {
  /** The name it is exported as. */
  name: string
  /** Its instance type's methods declared with a method declaration (not arrow-function properties). */
  methods: MethodInfo[]
}

/** One backend's answers, for the files of one analysis. */
export interface TypeReader {
  /** The TypeScript version that answers (`5.9.3`, `7.0.2`): part of the manifest's cache key. */
  readonly version: string
  /** The exported classes of `file` (absolute), or undefined when the file is not in the program. */
  classes(file: string): ClassInfo[] | undefined
  /** The local files `file` imports directly (absolute; not declaration files, not `node_modules`). */
  imports(file: string): string[]

  kind(type: TypeHandle): number
  /** The value of a string, number or boolean literal type. */
  literal(type: TypeHandle): string | number | boolean
  /** The members of a union or an intersection. */
  members(type: TypeHandle): TypeHandle[]
  isArray(type: TypeHandle): boolean
  isTuple(type: TypeHandle): boolean
  /** The type arguments of a reference (`T` of `T[]`, the elements of a tuple). */
  typeArguments(type: TypeHandle): TypeHandle[]
  /** The name of the type's symbol (`Date`, `User`, `__type` for a literal), if it has one. */
  symbolName(type: TypeHandle): string | undefined
  /** The type alias the type was written as, with its tags and whether it was given type arguments. */
  alias(type: TypeHandle): { name: string; tags: Tags; generic: boolean } | undefined
  /** The JSDoc tags of the type's own symbol (an interface's, a class's). */
  symbolTags(type: TypeHandle): Tags
  /** Whether the type is a generic instantiation (`Box<string>`): such types stay inline. */
  instantiated(type: TypeHandle): boolean
  /** Whether the type has call signatures (a function). */
  callable(type: TypeHandle): boolean
  properties(type: TypeHandle): PropertyInfo[]
  /** Whether the type has a property `name` (`then`: a thenable). */
  hasProperty(type: TypeHandle, name: string): boolean
  /** The value type of a string index signature (`[key: string]: T`). */
  stringIndex(type: TypeHandle): TypeHandle | undefined
  /** What `await` of a value of this type gives, as the union of these types. */
  awaited(type: TypeHandle): TypeHandle[]
  /** For messages only. */
  text(type: TypeHandle): string
  /** Ends the backend (the native one stops its checker process). */
  close(): void
}

export { findConfigFile } from '../../runtime/contract/analysis-key.ts'

/** A TypeScript install that can analyse: its version, its backend, and how to open a checker over some files. */
export interface TypeScriptCompiler {
  version: string
  backend: 'classic' | 'native'
  /** A checker over `files` with the project's compiler options (its tsconfig, when `cwd` has one). */
  open(files: string[], cwd: string): TypeReader
  /**
   * A checker kept open across analyses (`--watch`), where the backend can keep one (TypeScript ≥ 7: its process);
   * absent, each analysis opens its own.
   */
  keep?(cwd: string): KeptChecker
}

/** One checker for many analyses: each `open` sees the files as they are on disk then; `close` stops it. */
export interface KeptChecker {
  /** A reader over `files` (and the files of the earlier analyses); its `close()` leaves the checker open. */
  open(files: string[]): TypeReader
  /**
   * Starts opening the program of the app's tsconfig (its libraries and types) before the files are known, and returns
   * at once; the next `open` finishes it. False where the backend cannot.
   */
  warm?(): boolean
  close(): void
}
