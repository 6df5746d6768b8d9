/**
 * Client mistakes never make a 500: 2,000 seeded-random requests over every route `routeless routes` lists (path
 * parts filled with ids that exist and ids that do not), as queries, urlencoded forms, JSON and multipart bodies, with
 * the API's parameter names and odd values (NULs, huge numbers, JSON where text is expected, nested and prototype
 * keys, long text) under a developer key and the admin key. Each is answered below 500.
 */
import { createApp } from 'routeless'
import { listedRequests, seededRandom } from '@routeless/example-kit/testing'
import { expect, it } from 'vitest'
import { CONTROLLERS } from '../src/app.ts'
import { ADMIN_KEY, API_KEY, useServer } from './_server.ts'

const KEYS = [
  'text',
  'target_lang',
  'source_lang',
  'glossary_id',
  'name',
  'entries',
  'entries_format',
  'dictionaries[0].source_lang',
  'dictionaries[0].entries',
  'formality',
  'tag_handling',
  'split_sentences',
  'context',
  'ignore_tags',
  'style_id',
  'custom_instructions',
  'model_type',
  'show_billed_characters',
  'preserve_formatting',
  'page',
  'page_size',
  'start_date',
  'end_date',
  'group_by',
  'label',
  'key_id',
  'characters',
  'file',
  'output_format',
  'document_key',
  'type',
  '__proto__[x]',
  'x[99999]',
  'a[0][0][0][0][0][0][0][0][0]',
  'rules',
  'language',
  'instruction',
  'id',
  'translation_memory_id',
  'translation_memory_threshold',
  'enable_beta_languages',
]
const VALUES = [
  '',
  '1',
  '-1',
  'x',
  'de',
  'EN-US',
  'null',
  'true',
  '{}',
  '[]',
  '{"a":1}',
  '[1,2]',
  '1e999',
  '%00',
  '\u0000',
  'a,b',
  'tsv',
  'csv',
  'apple\tApfel',
  'x'.repeat(3000),
  '2025-01-01',
  'more',
  'html',
  'xml',
  'nonewlines',
]
const IDS = ['x1', '1', 'de', 'en', '00000000-0000-4000-8000-000000000000']

const served = useServer({ env: { RATE_LIMIT_REQUESTS: '1000000' } })

it('answers 2,000 random requests over every listed route below 500', async () => {
  const { server } = served
  const routes = listedRequests(await createApp(CONTROLLERS, { context: server.app.services })).filter(
    (r) => !r.path.includes('/voice/realtime'),
  )
  const next = seededRandom(Number(process.env.FUZZ_SEED ?? 7))
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!
  const failures: string[] = []
  for (let i = 0; i < 2000; i++) {
    const route = pick(routes)
    const fields = Array.from({ length: Math.floor(next() * 5) }, () => [pick(KEYS), pick(VALUES)] as const)
    const query = fields.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
    const method = next() < 0.7 ? route.method : pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
    const kind = method === 'GET' ? 'query' : pick(['query', 'form', 'json', 'multipart'] as const)
    const headers: Record<string, string> = { Authorization: `DeepL-Auth-Key ${next() < 0.2 ? ADMIN_KEY : API_KEY}` }
    let path = route.path.replace(/x1/g, () => pick(IDS))
    let body: BodyInit | undefined
    if (kind === 'query') path += `?${query}`
    else if (kind === 'form') [body, headers['content-type']] = [query, 'application/x-www-form-urlencoded']
    else if (kind === 'json')
      [body, headers['content-type']] = [
        JSON.stringify(Object.fromEntries(fields.map(([k, v]) => [k, next() < 0.5 ? v : parsed(v)]))),
        'application/json',
      ]
    else {
      const form = new FormData()
      for (const [k, v] of fields)
        k === 'file' ? form.append(k, new File([v], pick(['a.txt', 'a.docx', 'a.html', 'a']))) : form.append(k, v)
      body = form
    }
    const res = await fetch(server.url + path, { method, headers, body })
    const text = await res.text()
    if (res.status >= 500)
      failures.push(
        `#${i} ${res.status} ${method} ${path.slice(0, 120)} ${kind} ${JSON.stringify(fields).slice(0, 200)} → ${text.slice(0, 150)}`,
      )
  }
  expect(failures).toEqual([])
}, 120_000)

function parsed(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
