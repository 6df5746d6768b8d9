#!/usr/bin/env node
/**
 * `npm pack` / `npm publish` of routeless: the repository's README goes into the package, and the declaration files
 * are built when the last build left them out (`npm start` runs `build:js`, the JavaScript only: serving reads no
 * `.d.ts`; Rollup's build empties dist/ first, so dist/index.d.ts is there exactly when the last build wrote them).
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync } from 'node:fs'

copyFileSync('../../README.md', 'README.md')
if (!existsSync('dist/index.d.ts')) {
  console.error('routeless: prepack: dist has no declarations (a JavaScript-only build): building in full')
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' })
}
