import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/node.ts', 'src/cli.ts', 'src/bin.ts'],
  format: ['esm'],
  target: 'node20',
  dts: true,
  clean: true,
  splitting: true,
  sourcemap: true,
})
