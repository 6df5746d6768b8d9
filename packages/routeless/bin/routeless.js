#!/usr/bin/env node
// The published bin: a shim over the built CLI (dist/bin.js), so npm can link it before the first build.
import '../dist/bin.js'
