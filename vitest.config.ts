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
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'default',
          include: ['test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
        },
      },
      // The conformance suite again, its apps served with the module `routeless build` generates (test/_apps.ts), on
      // the in-process targets only (test/_targets.ts): the default project covers the source evaluated at start-up
      // on every target, the child runtimes included; the generated module is the same code, imported.
      {
        extends: true,
        test: {
          name: 'compiled',
          include: ['test/conformance/**/*.test.ts'],
          env: { ROUTELESS_COMPILED: 'generated' },
        },
      },
    ],
  },
})
