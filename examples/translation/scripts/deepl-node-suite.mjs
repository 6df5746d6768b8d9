#!/usr/bin/env node
/**
 * Runs deepl-node's own test suite (its `tests/`, one jest process per file) against this example.
 *
 *   node examples/translation/scripts/deepl-node-suite.mjs <deepl-node checkout> [mock|real|both] [test file…]
 *
 * The checkout must have its dependencies installed (`npm install --ignore-scripts` in it). For each mode the
 * script starts the example (`npm start`'s command) on a free port with a fresh SQLite directory — in mock mode with
 * `TEST_MODE=deepl-mock` and its proxy (`MOCK_PROXY_PORT`), and deepl-node's `DEEPL_MOCK_SERVER_PORT`,
 * `DEEPL_MOCK_PROXY_SERVER_PORT` and `DEEPL_PROXY_URL` set, in real mode without; the suite's `DEEPL_AUTH_KEY` is
 * registered as `API_KEY` in both — runs every test file (or the ones named) and prints the passed / failed / skipped counts, the failures by name, and a total.
 * Exit status: 0 when nothing failed, 1 otherwise, 2 for a usage error. Not part of CI (CI has no GitHub).
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startExample } from './_example-server.mjs'

const REAL_KEY = 'deepl-node-suite-key'

const [checkoutArg, modeArg = 'mock', ...only] = process.argv.slice(2)
if (!checkoutArg || !['mock', 'real', 'both'].includes(modeArg)) {
  console.error('usage: deepl-node-suite.mjs <deepl-node checkout> [mock|real|both] [tests/file.test.ts…]')
  process.exit(2)
}
const checkout = path.resolve(checkoutArg)
const jestBin = path.join(checkout, 'node_modules', '.bin', 'jest')
if (!existsSync(path.join(checkout, 'tests')) || !existsSync(jestBin)) {
  console.error(
    `${checkout}: no tests/ or no node_modules/.bin/jest (run \`npm install --ignore-scripts\` there first)`,
  )
  process.exit(2)
}

const files =
  only.length > 0
    ? only
    : findTests(path.join(checkout, 'tests'))
        .map((f) => path.relative(checkout, f))
        .sort()
const modes = modeArg === 'both' ? ['mock', 'real'] : [modeArg]
let failedAny = false
for (const mode of modes) {
  const totals = await runMode(mode)
  if (totals.failed > 0) failedAny = true
}
process.exit(failedAny ? 1 : 0)

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return findTests(full)
    return name.endsWith('.test.ts') ? [full] : []
  })
}

async function runJest(file, env) {
  const outFile = path.join(tmpdir(), `deepl-node-suite-${process.pid}-${Date.now()}.json`)
  await new Promise((resolve) => {
    const child = spawn(jestBin, ['--json', `--outputFile=${outFile}`, file], {
      cwd: checkout,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    child.stderr.on('data', () => {})
    child.on('exit', resolve)
  })
  try {
    return JSON.parse(readFileSync(outFile, 'utf8'))
  } catch {
    return undefined
  } finally {
    rmSync(outFile, { force: true })
  }
}

async function runMode(mode) {
  // In mock mode any key works; REAL_KEY is the suite's DEEPL_AUTH_KEY in both modes.
  const { port, proxyPort, stop } = await startExample(mode, { apiKey: REAL_KEY })
  // `localhost`, not 127.0.0.1: the suite's nock patterns only match `localhost:<port>`.
  const env = { ...process.env, DEEPL_SERVER_URL: `http://localhost:${port}`, DEEPL_AUTH_KEY: REAL_KEY }
  delete env.DEEPL_MOCK_SERVER_PORT
  delete env.DEEPL_MOCK_PROXY_SERVER_PORT
  delete env.DEEPL_PROXY_URL
  if (mode === 'mock') {
    env.DEEPL_MOCK_SERVER_PORT = String(port)
    env.DEEPL_MOCK_PROXY_SERVER_PORT = String(proxyPort) // the example's deepl-mock proxy (MOCK_PROXY_PORT)
    env.DEEPL_PROXY_URL = `http://localhost:${proxyPort}`
  }
  const totals = { passed: 0, failed: 0, skipped: 0 }
  console.log(`\n== ${mode} mode (${env.DEEPL_SERVER_URL})`)
  try {
    for (const file of files) {
      const result = await runJest(file, env)
      if (!result) {
        console.log(`${file}: jest gave no result`)
        totals.failed += 1
        continue
      }
      const skipped = result.numPendingTests + result.numTodoTests
      totals.passed += result.numPassedTests
      totals.failed += result.numFailedTests
      totals.skipped += skipped
      const suiteFailed = result.numFailedTestSuites > 0 && result.numFailedTests === 0
      console.log(
        `${file}: ${result.numPassedTests} passed, ${result.numFailedTests} failed, ${skipped} skipped${suiteFailed ? ' (the file failed to run)' : ''}`,
      )
      if (suiteFailed) totals.failed += 1
      for (const suite of result.testResults) {
        for (const test of suite.assertionResults) {
          if (test.status === 'failed')
            console.log(`  ✗ ${test.fullName}\n      ${(test.failureMessages[0] ?? '').split('\n')[0]}`)
        }
        if (suiteFailed && suite.message) console.log(`  ${suite.message.split('\n').slice(0, 5).join('\n  ')}`)
      }
    }
  } finally {
    await stop()
  }
  console.log(
    `${mode} mode total: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (${totals.passed + totals.failed + totals.skipped})`,
  )
  return totals
}
