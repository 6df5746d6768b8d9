#!/usr/bin/env node
// The published bin: a shim over the built CLI (dist/bin.js), so npm can link it before the first build.
// Node.js ≥ 22.1 keeps the code it compiles for the CLI's modules (and TypeScript's, Ajv's …) in its compile cache, as
// `tsc` does: the next start reads it instead of compiling again. `NODE_DISABLE_COMPILE_CACHE=1` turns it off, and
// `NODE_COMPILE_CACHE` names its folder (else `node-compile-cache` in the temporary folder). Not under `--watch`: each
// reload imports the controllers under new URLs, and the cache would keep an entry for every one of them.
import module from 'node:module'

const watching = process.argv.includes('--watch') || process.argv.includes('--watch=true')
if (!watching) module.enableCompileCache?.()
await import('../dist/bin.js')
