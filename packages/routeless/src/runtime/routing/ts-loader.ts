/**
 * Internal: makes `import()` of a `.ts` controller or config work wherever routeless runs — the CLI, and a library
 * user's plain `node app.js` or vitest (which leaves `node_modules`, so routeless's own `import()`, to Node).
 *
 * Node ≥ 22.18 (and 23.6) strips types itself: a `.ts` file in a `"type": "module"` package, or a `.mts`, is imported
 * as it is, and tsx is not loaded. Type stripping only removes types, so a file that needs code written for it
 * (`enum`, `namespace`, parameter properties, `import x = require()`), an import that leaves out the `.ts` extension
 * or names a type without `type`, or a decorator, fails to load there: routeless then registers tsx and imports the
 * file again under a new URL (node 22 keeps a refused import's error for its URL); tsx loads every file after it.
 * Node 20 and 22 before 22.18 cannot load TypeScript at all: tsx is registered before the first file, and so it is
 * for a `.cts` or a `.ts` outside a `"type": "module"` package (tsx loads those as CommonJS, as routeless always has).
 * @module
 */
import * as nodeModule from 'node:module'
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

let registered: Promise<void> | undefined

/** Registers tsx's ESM and CommonJS hooks, once per process (Bun and Deno load TypeScript themselves). */
export function registerTypeScript(): Promise<void> {
  registered ??= (async () => {
    if (process.versions.bun || process.versions.deno) return
    // Both hooks: a .ts file outside a "type": "module" package is loaded as CommonJS.
    const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')])
    esm.register()
    cjs.register()
  })()
  return registered
}

/** `.ts`, `.mts` or `.cts`. */
export function isTypeScript(file: string): boolean {
  return /\.[mc]?ts$/.test(file)
}

/** Node strips types by itself (≥ 22.18, 23.6; not with `--no-experimental-strip-types`); Bun and Deno need nothing. */
export function nodeStripsTypes(): boolean {
  const features = process.features as { typescript?: string | false }
  return Boolean(features.typescript) && !process.versions.bun && !process.versions.deno
}

/**
 * Whether `file` loads without tsx: not TypeScript, or on Bun or Deno, or a module node strips the types of, or tsx is
 * registered already (so that loading it first changes nothing for the imports after it).
 */
export function loadsWithoutTsx(file: string): boolean {
  if (registered || !isTypeScript(file) || process.versions.bun || process.versions.deno) return true
  return nodeStripsTypes() && loadsAsModule(file)
}

/**
 * Imports the module at `url` (the file `file`, a controller or a config): natively where node strips types and
 * the file can be loaded so, else with tsx registered first; a native load refused for TypeScript's sake is tried once
 * more with tsx. Other errors (a module that throws while it runs) are the module's own and are not retried.
 */
export async function importModule(url: string, file: string): Promise<Record<string, unknown>> {
  // Controllers load side by side: one that asked for tsx first makes the others wait until it is registered.
  if (registered) return registered.then(() => import(url))
  if (isTypeScript(file) && (!nodeStripsTypes() || !loadsAsModule(file))) {
    await registerTypeScript()
    return import(url)
  }
  try {
    return await import(url)
  } catch (error) {
    if (!nodeStripsTypes() || !refusedForTypeScript(error)) throw error
    await registerTypeScript()
    return import(`${url}${url.includes('?') ? '&' : '?'}routeless-tsx`)
  }
}

/** What node says when a file is TypeScript it will not transform, or an import only tsx's resolution finds. */
const TYPESCRIPT_REFUSALS = new Set([
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX', // enum, namespace, parameter property, import = require()
  'ERR_INVALID_TYPESCRIPT_SYNTAX',
  'ERR_MODULE_NOT_FOUND', // ./lib or ./lib.js for lib.ts
  'ERR_UNSUPPORTED_DIR_IMPORT', // ./lib for lib/index.ts
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING',
  'ERR_PACKAGE_IMPORT_NOT_DEFINED',
])

function refusedForTypeScript(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') return TYPESCRIPT_REFUSALS.has(code)
  // Without a code: an import of a type without `type` (no such export at link time), a decorator (a parse error).
  // Both come before any module of the graph runs; a SyntaxError a module throws itself would run it twice.
  return error.name === 'SyntaxError'
}

const moduleScopes = new Map<string, boolean>()

/** `.mts`, or a `.ts` whose nearest package.json says `"type": "module"`: node loads it as ES module natively. */
function loadsAsModule(file: string): boolean {
  if (file.endsWith('.mts')) return true
  if (file.endsWith('.cts')) return false
  const find = (nodeModule as { findPackageJSON?: (url: string) => string | undefined }).findPackageJSON
  let pkg: string | undefined
  try {
    pkg = find?.(pathToFileURL(file).href)
  } catch {
    return false // no such file (a source given with its own `load`, a file deleted meanwhile): tsx's way, as before
  }
  if (pkg === undefined) return false
  let module = moduleScopes.get(pkg)
  if (module === undefined) {
    try {
      module = JSON.parse(readFileSync(pkg, 'utf8')).type === 'module'
    } catch {
      module = false
    }
    moduleScopes.set(pkg, module)
  }
  return module
}
