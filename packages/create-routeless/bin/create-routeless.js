#!/usr/bin/env node
// The published bin: `npm create routeless@latest` runs this (dist/main.js is built from src/ by `npm pack`).
import { main } from '../dist/main.js'

process.exitCode = await main(process.argv.slice(2))
