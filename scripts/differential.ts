/**
 * The differential test against another build of routeless (issue 32: run once against the build before the
 * contract was compiled). Sends the requests test/_differential.ts generates from each fixture's handler types to
 * the fixture served by this tree and by the tree at `other`, and prints every answer that differs.
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && cp -al "$PWD/node_modules" .)
 *   node --import tsx scripts/differential.ts /tmp/before [fixture …]
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { differences, requestsFor } from '../test/_differential.ts'

const [other, ...names] = process.argv.slice(2)
if (!other) throw new Error('usage: node --import tsx scripts/differential.ts <other tree> [fixture …]')
const here = path.resolve(import.meta.dirname, '..')
const load = async (tree: string) =>
  (await import(pathToFileURL(path.join(tree, 'packages/routeless/src/index.ts')).href)) as typeof import('routeless')
const [mine, theirs] = [await load(here), await load(path.resolve(other))]
const quiet = { error: () => {}, warn: () => {} }
let total = 0
let differing = 0
for (const name of names.length ? names : ['typed', 'args', 'schemas', 'returns', 'basic', 'features']) {
  // Each tree serves its own copy of the fixture: its `import … from 'routeless'` must resolve to that tree.
  const prefixes = (tree: string) => [path.join(tree, 'test/fixtures', name)]
  const manifest = (tag: string) =>
    path.join(mkdtempSync(path.join(tmpdir(), `routeless-diff-${tag}-`)), 'manifest.json')
  const a = await mine.createApp(prefixes(here), { logger: quiet, manifest: manifest('mine') })
  const b = await theirs.createApp(prefixes(path.resolve(other)), { logger: quiet, manifest: manifest('theirs') })
  const requests = requestsFor(a as never)
  const found = await differences(a, b, requests)
  total += requests.length
  differing += found.length
  console.log(`${name}: ${requests.length} requests, ${found.length} differ`)
  for (const d of found.slice(0, 20))
    console.log(`  ${d.request}\n  this tree:  ${JSON.stringify(d.a)}\n  the other:  ${JSON.stringify(d.b)}`)
}
console.log(`${total} requests, ${differing} differ`)
