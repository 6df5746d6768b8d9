import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/node.ts', 'src/uws.ts', 'src/fetch.ts', 'src/cli.ts', 'src/bin.ts'],
  // Optional: loaded at run time by routeless/uws only, never bundled.
  external: ['uWebSockets.js'],
  format: ['esm'],
  target: 'node20',
  dts: false, // declarations: tsc -p tsconfig.build.json (TypeScript 7: tsup reads them with the classic API)
  clean: true,
  splitting: true,
  sourcemap: true,
})
