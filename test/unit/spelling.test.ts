/**
 * A path segment keeps the spelling its author wrote: the route table, OpenAPI, `routeless explain` and the generated
 * client name the path as the file or method name is written; the other separator is a request alias, never listed.
 */
import { describe, expect, it } from 'vitest'
import { createApp } from 'routeless'
import { generateClient } from '../../packages/routeless/src/compiler/tooling/client.ts'
import { explain } from '../../packages/routeless/src/compiler/tooling/explain.ts'

const app = () =>
  createApp(
    {
      modules: {
        'v3/style_rules': {
          Default: class {
            GET(id = '') {
              return { at: 'style_rules', id }
            }
            PUT_$_configured_rules(id: string) {
              return { at: 'configured_rules', id }
            }
          },
        },
        'v2/glossary-language-pairs': {
          Default: class {
            GET() {
              return { at: 'pairs' }
            }
          },
        },
        'v3/users': {
          Default: class {
            POST_$_report_fraud(userId: string) {
              return { at: 'report_fraud', userId }
            }
          },
        },
        'v3/aml/monitoring': {
          Default: class {
            GET_$_news(jobId: string, reference: string) {
              return { at: 'news', jobId, reference }
            }
          },
        },
        '': {
          HTTPServer: class {
            GET() {
              return { at: 'http-server' }
            }
          },
        },
      },
    },
    // Names only: the working directory's manifest describes the examples' modules of the same paths.
    { types: 'off' },
  )

const LISTED = [
  'GET /http-server',
  'GET /v2/glossary-language-pairs',
  'GET /v3/aml/monitoring/{jobId}/news/{reference}',
  'POST /v3/users/{userId}/report_fraud',
  'GET /v3/style_rules',
  'PUT /v3/style_rules/{id}/configured_rules',
]

describe('spelling as written', () => {
  it('lists files and method routes as written, class names kebab-cased, a trailing parameter in the template', async () => {
    const { table } = await app()
    expect(
      table
        .list()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual([...LISTED].sort())
  })

  it('puts the same paths in OpenAPI, and no alias', async () => {
    const paths = Object.keys((await app()).openapi().paths as object).sort()
    expect(paths).toEqual(
      [
        '/http-server',
        '/v2/glossary-language-pairs',
        '/v3/aml/monitoring/{jobId}/news/{reference}',
        '/v3/users/{userId}/report_fraud',
        '/v3/style_rules',
        '/v3/style_rules/{id}',
        '/v3/style_rules/{id}/configured_rules',
      ].sort(),
    )
  })

  it('answers the written spelling and its alias alike', async () => {
    const a = await app()
    const get = async (path: string, method = 'GET') =>
      (await a.fetch(new Request(`http://x${path}`, { method }))).json()
    expect(await get('/v3/style_rules/s1')).toEqual({ at: 'style_rules', id: 's1' })
    expect(await get('/v3/style-rules/s1')).toEqual({ at: 'style_rules', id: 's1' })
    expect(await get('/v3/style-rules/s1/configured-rules', 'PUT')).toEqual({ at: 'configured_rules', id: 's1' })
    expect(await get('/v3/users/u1/report-fraud', 'POST')).toEqual({ at: 'report_fraud', userId: 'u1' })
    expect(await get('/v2/glossary_language_pairs')).toEqual({ at: 'pairs' })
    expect(await get('/v3/aml/monitoring/j1/news/r1')).toEqual({ at: 'news', jobId: 'j1', reference: 'r1' })
    expect(a.table.warnings).toEqual([])
  })

  it('names the written template in routeless explain, whichever spelling the request used', async () => {
    const { table } = await app()
    expect(explain(table, 'PUT', '/v3/style-rules/s1/configured-rules').lines).toContain(
      '  path template  /v3/style_rules/{id}/configured_rules',
    )
    expect(explain(table, 'POST', '/v3/users/u1/report_fraud').lines).toContain(
      '  path template  /v3/users/{userId}/report_fraud',
    )
  })

  it('calls the written path from the generated client', async () => {
    const source = generateClient((await app()).table)
    expect(source).toContain("'/v3/style_rules/{id}/configured_rules'")
    expect(source).toContain("'/v3/users/{userId}/report_fraud'")
    expect(source).toContain("'/v2/glossary-language-pairs'")
    expect(source).not.toMatch(/style-rules|configured-rules|report-fraud/)
  })
})
