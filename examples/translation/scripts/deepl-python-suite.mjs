#!/usr/bin/env node
/**
 * Runs deepl-python's own test suite (its `tests/`, with pytest) against this example.
 *
 *   node examples/translation/scripts/deepl-python-suite.mjs <deepl-python checkout> [mock|real|both] [pytest args…]
 *
 * Needs python3 with pytest, requests, pydantic and typing_extensions (the checkout's own `deepl` package is
 * imported from the checkout). The suite's conftest imports pydantic 1's `BaseSettings`; under pydantic 2 a pytest
 * plugin written to a temporary directory (`-p deepl_suite_shim`) points `pydantic.BaseSettings` at
 * `pydantic.v1.BaseSettings` first — nothing in the checkout is changed. For each mode the script starts the example
 * (_example-server.mjs: a free port, a fresh SQLite directory; in mock mode `TEST_MODE=deepl-mock` and its proxy) and
 * runs pytest with the suite's variables: `DEEPL_SERVER_URL`, `DEEPL_AUTH_KEY` (registered as `API_KEY`), in mock
 * mode `DEEPL_MOCK_SERVER_PORT`, `DEEPL_MOCK_PROXY_SERVER_PORT` and `DEEPL_PROXY_URL`. It prints the passed / failed
 * / skipped counts and the failures by name. Exit status: 0 when nothing failed, 1 otherwise, 2 for a usage error.
 * Not part of CI (CI has no GitHub).
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startExample } from './_example-server.mjs'

const KEY = 'deepl-python-suite-key'
const SHIM = `import pydantic
try:
    pydantic.BaseSettings
except Exception:  # pydantic 2: the suite's conftest wants pydantic 1's BaseSettings
    from pydantic.v1 import BaseSettings
    pydantic.BaseSettings = BaseSettings
`

const [checkoutArg, modeArg = 'mock', ...pytestArgs] = process.argv.slice(2)
if (!checkoutArg || !['mock', 'real', 'both'].includes(modeArg)) {
  console.error('usage: deepl-python-suite.mjs <deepl-python checkout> [mock|real|both] [pytest args…]')
  process.exit(2)
}
const checkout = path.resolve(checkoutArg)
if (!existsSync(path.join(checkout, 'tests', 'conftest.py')) || !existsSync(path.join(checkout, 'deepl'))) {
  console.error(`${checkout}: no tests/conftest.py or deepl/ (a deepl-python checkout is expected)`)
  process.exit(2)
}
const missing = ['pytest', 'requests', 'pydantic', 'typing_extensions'].filter(
  (module) => spawnSync('python3', ['-c', `import ${module}`], { stdio: 'ignore' }).status !== 0,
)
if (missing.length > 0) {
  console.error(`python3 lacks ${missing.join(', ')}: the suite cannot run`)
  process.exit(2)
}

const shimDir = mkdtempSync(path.join(tmpdir(), 'deepl-python-shim-'))
writeFileSync(path.join(shimDir, 'deepl_suite_shim.py'), SHIM)
let failedAny = false
try {
  for (const mode of modeArg === 'both' ? ['mock', 'real'] : [modeArg]) {
    const totals = await runMode(mode)
    if (totals.failed > 0) failedAny = true
  }
} finally {
  rmSync(shimDir, { recursive: true, force: true })
}
process.exit(failedAny ? 1 : 0)

async function runMode(mode) {
  const { port, proxyPort, stop } = await startExample(mode, { apiKey: KEY })
  const env = {
    ...process.env,
    DEEPL_SERVER_URL: `http://localhost:${port}`,
    DEEPL_AUTH_KEY: KEY,
    PYTHONPATH: [shimDir, checkout, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
  }
  for (const name of ['DEEPL_MOCK_SERVER_PORT', 'DEEPL_MOCK_PROXY_SERVER_PORT', 'DEEPL_PROXY_URL']) delete env[name]
  if (mode === 'mock') {
    env.DEEPL_MOCK_SERVER_PORT = String(port)
    env.DEEPL_MOCK_PROXY_SERVER_PORT = String(proxyPort) // the example's deepl-mock proxy (MOCK_PROXY_PORT)
    env.DEEPL_PROXY_URL = `http://localhost:${proxyPort}`
  }
  const report = path.join(tmpdir(), `deepl-python-suite-${process.pid}-${mode}.xml`)
  console.log(`\n== ${mode} mode (${env.DEEPL_SERVER_URL})`)
  try {
    await new Promise((resolve) => {
      const args = ['-m', 'pytest', '-p', 'deepl_suite_shim', '-q', '-p', 'no:cacheprovider', `--junitxml=${report}`]
      const child = spawn('python3', [...args, ...(pytestArgs.length > 0 ? pytestArgs : ['tests'])], {
        cwd: checkout,
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      })
      child.on('exit', resolve)
    })
    const totals = readReport(report)
    for (const failure of totals.failures) console.log(`  ✗ ${failure}`)
    console.log(
      `${mode} mode total: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (${totals.passed + totals.failed + totals.skipped})`,
    )
    return totals
  } finally {
    rmSync(report, { force: true })
    await stop()
  }
}

/** Counts and failures from pytest's JUnit XML report (one `<testcase>` per test). */
function readReport(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, failures: ['pytest gave no report'] }
  const xml = readFileSync(file, 'utf8')
  const totals = { passed: 0, failed: 0, skipped: 0, failures: [] }
  for (const [, attributes, body = ''] of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const name = `${/classname="([^"]*)"/.exec(attributes)?.[1]}::${/\bname="([^"]*)"/.exec(attributes)?.[1]}`
    if (/<(failure|error)\b/.test(body)) {
      totals.failed += 1
      const message = /<(?:failure|error)\b[^>]*message="([^"]*)"/.exec(body)?.[1] ?? ''
      totals.failures.push(`${name}\n      ${message.split('&#10;')[0]}`)
    } else if (/<skipped\b/.test(body)) totals.skipped += 1
    else totals.passed += 1
  }
  return totals
}
