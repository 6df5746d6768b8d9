// `node --import test/_module-log.mjs …`: writes "module-log: <url>" on stderr for every file module the process
// loads (a loader hook), so that a test can tell which modules a command loaded.
import { register } from 'node:module'

const hook = `import { writeSync } from 'node:fs'
export async function load(url, context, next) {
  if (url.startsWith('file:')) writeSync(2, 'module-log: ' + url + '\\n')
  return next(url, context)
}`
register(`data:text/javascript,${encodeURIComponent(hook)}`)
