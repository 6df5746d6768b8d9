/**
 * Internal: makes `import()` of a `.ts` controller work wherever routeless runs — the CLI, and a library user's plain
 * `node app.js` or vitest (which leaves `node_modules`, so routeless's own `import()`, to Node). Node 20 cannot load
 * TypeScript, and a module it once refused stays refused for that process, so tsx is registered before the first
 * `.ts` controller is imported, not after a failure.
 * @module
 */

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
