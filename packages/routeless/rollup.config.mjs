/**
 * The node entries of the package (`routeless`, `/node`, `/uws`, `/fetch`, `/cli` and the bin), bundled by Rollup so
 * that the request-time code is one chunk: `runtime-[hash].js` holds every module of `src/runtime/`, and serving
 * (`routeless` after `routeless build`) loads that chunk, the CLI's and the entries: a few files. esbuild (tsup) makes
 * one chunk per set of entries and dynamic `import()`s that share modules, 45 files on that path, and node's module
 * loader spent more on them than on routeless's own start (docs/BENCHMARKS.md, "The serve path in four files").
 *
 * Each file is compiled by esbuild (`transform`: types stripped, `target` node20, as tsup did); Rollup links them.
 * The build-time modules (`src/compiler/`) keep Rollup's default chunks, so that what imports Ajv or TypeScript loads
 * only where it is asked for; Ajv itself is bundled into them as one module (`scripts/vendor-ajv.mjs`).
 * `routeless/worker` is tsup's own build (tsup.config.ts): one file with no node entry.
 * @module
 */
import { rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { transform } from 'esbuild'
import { VENDORED, vendorAjv } from './scripts/vendor-ajv.mjs'

const SRC = fileURLToPath(new URL('src/', import.meta.url))
const DIST = fileURLToPath(new URL('dist/', import.meta.url))
const ENTRIES = ['index', 'node', 'uws', 'fetch', 'cli', 'bin']
const CONFIG_OPTIONS = path.join(SRC, 'cli', 'config-options.ts')

/** Compiles a TypeScript module with esbuild: imports are kept as written (`verbatimModuleSyntax`), types dropped. */
const typescript = {
  name: 'routeless:typescript',
  buildStart: () => rmSync(DIST, { recursive: true, force: true }),
  async transform(code, id) {
    if (!id.endsWith('.ts')) return null
    const out = await transform(code, {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: id,
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, target: 'ES2022' } },
    })
    return { code: out.code, map: out.map }
  },
}

/**
 * The chunk a module goes in: the rooms of request time and of the CLI are one each, but for a module importing a
 * package (`@whatwg-node/server` in routeless/fetch's adapter), which keeps a chunk of its own so that the package
 * loads only where it is used; the rest, Rollup's. A config's options (`defineConfig`, `appOptionsFromConfig`: pure,
 * and exported by `routeless` itself) go with request time, so that importing `routeless` loads no CLI code.
 */
function chunkOf(id, { getModuleInfo }) {
  if (id === CONFIG_OPTIONS) return 'runtime'
  const room = path.relative(SRC, id).split(path.sep)[0]
  if (room !== 'runtime' && room !== 'cli') return undefined
  const importsPackage = getModuleInfo(id).importedIds.some((dep) => !path.isAbsolute(dep) && !dep.startsWith('node:'))
  return importsPackage ? undefined : room
}

export default {
  input: Object.fromEntries(ENTRIES.map((name) => [name, path.join(SRC, `${name}.ts`)])),
  // Packages and node's modules stay imports (the optional `uWebSockets.js` is required at run time by routeless/uws),
  // but Ajv, bundled into the build-time chunks as one module (`scripts/vendor-ajv.mjs`).
  external: (id) => !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('\0') && !VENDORED.includes(id),
  plugins: [vendorAjv(), typescript],
  output: {
    dir: DIST,
    format: 'es',
    sourcemap: true,
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    manualChunks: chunkOf,
    // An entry imports its chunks, not theirs too: node would load them anyway, and the entries stay readable.
    hoistTransitiveImports: false,
  },
}
