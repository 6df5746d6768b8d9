import { defineConfig } from 'tsup'
import { stripComments } from './scripts/strip-comments.mjs'

// routeless/worker, what a Worker bundle imports: one file of its own (no chunk shared with the node entries, which
// hold discovery and the TypeScript loader), so that the bundler keeps only what the Worker runs. Its comments are
// blanked (`scripts/strip-comments.mjs`): esbuild keeps those of class members in an unminified Worker. The node
// entries are Rollup's (rollup.config.mjs), built first: it empties dist/.
export default defineConfig({
  entry: ['src/worker.ts'],
  format: ['esm'],
  target: 'node20',
  dts: false, // declarations: tsc -p tsconfig.build.json (TypeScript 7: tsup reads them with the classic API)
  sourcemap: true,
  splitting: false,
  onSuccess: async () => void (await stripComments('dist/worker.js')),
})
