import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/node.ts', 'src/uws.ts', 'src/fetch.ts', 'src/worker.ts', 'src/cli.ts', 'src/bin.ts'],
  // Optional: loaded at run time by routeless/uws only, never bundled.
  external: ['uWebSockets.js'],
  format: ['esm'],
  target: 'node20',
  dts: true,
  clean: true,
  splitting: true,
  sourcemap: true,
})
