/** Every app option the config file's type allows is one the loader accepts and hands to the app. */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { appOptionsOf, loadConfig } from '../../packages/routeless/src/cli/config.ts'

describe('routeless.config keys', () => {
  it('takes checkReturns and partLimit, and gives them to the app', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routeless-keys-'))
    writeFileSync(
      path.join(dir, 'routeless.config.mjs'),
      'export default { checkReturns: true, partLimit: 3, bodyLimit: 1024 }\n',
    )
    const { config } = await loadConfig('routeless.config.mjs', dir)
    expect(appOptionsOf(config)).toEqual({ checkReturns: true, partLimit: 3, bodyLimit: 1024 })
  })

  it('still refuses an option that does not exist', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routeless-keys-'))
    writeFileSync(path.join(dir, 'routeless.config.mjs'), 'export default { partLimits: 3 }\n')
    await expect(loadConfig('routeless.config.mjs', dir)).rejects.toThrow(/unknown option partLimits/)
  })
})
