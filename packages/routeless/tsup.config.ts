import { defineConfig } from 'tsup'
import { stripComments } from './scripts/strip-comments.mjs'

const shared = {
  // Optional: loaded at run time by routeless/uws only, never bundled.
  external: ['uWebSockets.js'],
  format: ['esm'] as const,
  target: 'node20',
  dts: false, // declarations: tsc -p tsconfig.build.json (TypeScript 7: tsup reads them with the classic API)
  sourcemap: true,
}

export default defineConfig([
  {
    ...shared,
    entry: ['src/index.ts', 'src/node.ts', 'src/uws.ts', 'src/fetch.ts', 'src/cli.ts', 'src/bin.ts'],
    clean: true,
    splitting: true,
  },
  // routeless/worker, what a Worker bundle imports: one file of its own (no chunk shared with the node entries, which
  // hold discovery and the TypeScript loader), so that the bundler keeps only what the Worker runs. Its comments are
  // blanked (`scripts/strip-comments.mjs`): esbuild keeps those of class members in an unminified Worker.
  {
    ...shared,
    entry: ['src/worker.ts'],
    splitting: false,
    onSuccess: async () => void (await stripComments('dist/worker.js')),
  },
])
