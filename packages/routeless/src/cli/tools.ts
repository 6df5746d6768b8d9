/**
 * The commands that load the app and read its route table: `explain`, `check`, `client`, `routes`, `openapi` and
 * `asyncapi`.
 * @module
 */
import path from 'node:path'
import type { OpenAPIOptions } from '../runtime/documents/openapi.ts'
import type { AsyncAPIOptions } from '../runtime/documents/asyncapi.ts'
import type { CliIO } from './io.ts'
import { loadApp } from './serve.ts'

export async function explainCommand(
  prefix: string[],
  method: string,
  target: string,
  io: CliIO,
  code = false,
): Promise<number> {
  const app = await loadApp(prefix, io)
  if (!app) return 1
  const { explain } = await import('../compiler/tooling/explain.ts')
  const where = target.startsWith('/') ? target : `/${target}`
  const { status, lines } = explain(app.table, method, where, code ? (h) => app.pipelineOf(h) : undefined)
  for (const line of lines) io.stdout(line)
  return status < 400 ? 0 : 1
}

export async function checkCommand(prefix: string[], io: CliIO): Promise<number> {
  // Warnings are collected by the check, not printed while loading.
  const app = await loadApp(prefix, io, {
    logger: { error: (m: string) => io.stderr(`routeless: ${m}`), warn: () => {} },
  })
  if (!app) return 1
  const { checkTable } = await import('../compiler/tooling/check.ts')
  const problems = checkTable(app.table)
  for (const p of problems) io.stdout(`warning: ${p}`)
  const found = problems.length === 0 ? 'no problems' : `${problems.length} problem${problems.length > 1 ? 's' : ''}`
  io.stdout(`routeless: ${app.table.rows.length} handlers, ${found}`)
  return problems.length === 0 ? 0 : 1
}

export async function clientCommand(prefix: string[], out: string, io: CliIO): Promise<number> {
  const app = await loadApp(prefix, io)
  if (!app) return 1
  if (app.table.types === 'none')
    io.stderr(
      'routeless: warning: no handler types were read (install typescript, or run routeless build): ' +
        "the client's arguments and results are untyped",
    )
  const { generateClient } = await import('../compiler/tooling/client.ts')
  const { writeFileSync } = await import('node:fs')
  const file = path.resolve(process.cwd(), out)
  writeFileSync(file, generateClient(app.table))
  const operations = app.table.rows.filter((r) => r.method !== 'WEBSOCKET' && r.method !== 'ANY').length
  const sockets = app.table.rows.filter((r) => r.method === 'WEBSOCKET').length
  io.stdout(
    `routeless: wrote ${path.relative(process.cwd(), file)}: ${operations} operations` +
      (sockets ? `, ${sockets} socket${sockets === 1 ? '' : 's'}` : ''),
  )
  return 0
}

export async function routesCommand(prefix: string[], io: CliIO): Promise<number> {
  const app = await loadApp(prefix, io)
  if (!app) return 1
  const rows = app.table.list()
  const width = (k: 'method' | 'path' | 'file' | 'handler') => Math.max(k.length, ...rows.map((r) => r[k].length))
  const [wm, wp, wf, wh] = [width('method'), width('path'), width('file'), width('handler')]
  io.stdout(`${'METHOD'.padEnd(wm)}  ${'PATH'.padEnd(wp)}  ${'FILE'.padEnd(wf)}  ${'HANDLER'.padEnd(wh)}  PARAMETERS`)
  for (const r of rows)
    io.stdout(
      `${r.method.padEnd(wm)}  ${r.path.padEnd(wp)}  ${r.file.padEnd(wf)}  ${r.handler.padEnd(wh)}  ${r.params}`,
    )
  return 0
}

export async function asyncapiCommand(prefix: string[], options: AsyncAPIOptions, io: CliIO): Promise<number> {
  const app = await loadApp(prefix, io)
  if (!app) return 1
  const { generateAsyncAPI } = await import('../runtime/documents/asyncapi.ts')
  io.stdout(JSON.stringify(generateAsyncAPI(app.table, options), null, 2))
  return 0
}

export async function openapiCommand(prefix: string[], options: OpenAPIOptions, io: CliIO): Promise<number> {
  const app = await loadApp(prefix, io)
  if (!app) return 1
  const { generateOpenAPI } = await import('../runtime/documents/openapi.ts')
  io.stdout(JSON.stringify(generateOpenAPI(app.table, options), null, 2))
  return 0
}
