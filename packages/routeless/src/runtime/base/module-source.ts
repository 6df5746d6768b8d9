/**
 * Internal: a controller module as the core is given it, found under a prefix (`runtime/routing/discover.ts`), listed in a
 * module map or bundled.
 * @module
 */

/** A module's exports, as given by `import()` or by a module map. */
export type ModuleExports = Record<string, unknown>

/** A module found under a prefix: the path parts it answers and where it came from. */
export interface ModuleSource {
  /** File and folder names below the prefix, as written (`['v3', 'biometric_kyc']`); `index` files name their folder. */
  parts: string[]
  file: string
  /** The prefix it was found under: two modules answering one path conflict only within one prefix. */
  root?: string
  /** The module's file as the signature manifest names it, for modules given without a file (a bundle's). */
  manifestFile?: string
  load: () => Promise<ModuleExports>
}
