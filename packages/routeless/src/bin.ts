#!/usr/bin/env node
// The package's entry comes with the CLI: what a config and the controllers import is then read with the CLI's own
// modules, not after them, and compiled before serving turns source maps on for the project's built code (node reads
// the map of every module compiled after that, and routeless's own are not what a user's stack needs).
import './index.ts'
import { runCli } from './cli/main.ts'

process.exitCode = await runCli(process.argv.slice(2))
