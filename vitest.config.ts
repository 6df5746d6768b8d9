import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (file: string) => fileURLToPath(new URL(`./packages/routeless/src/${file}`, import.meta.url))

export default defineConfig({
  resolve: {
    // Tests run against the sources; the build is checked by the CLI tests (they run dist/bin.js).
    alias: [
      { find: /^routeless$/, replacement: src('index.ts') },
      { find: /^routeless\/node$/, replacement: src('node.ts') },
      { find: /^routeless\/cli$/, replacement: src('cli.ts') },
      { find: /^routeless\/uws$/, replacement: src('uws.ts') },
      { find: /^routeless\/fetch$/, replacement: src('fetch.ts') },
      { find: /^routeless\/worker$/, replacement: src('worker.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
