/**
 * Writes the project: templates/shared, then templates/<runtime> over it, then its package.json and README. A
 * template file named `_gitignore` becomes `.gitignore` (npm leaves `.gitignore` files out of packages), and
 * `{{name}}` in a template's text becomes the package name.
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readme } from './readme.ts'
import type { Runtime } from './runtimes.ts'

/** templates/, beside dist/ in the package (and beside src/ in the repository). */
const TEMPLATES = fileURLToPath(new URL('../templates/', import.meta.url))

export interface Project {
  directory: string
  name: string
  runtime: Runtime
  /** The routeless version range the project depends on. */
  routeless: string
}

/** Writes the project's files; returns their paths relative to its directory, sorted. */
export function scaffold(project: Project): string[] {
  const written: string[] = []
  const write = (relative: string, text: string) => {
    const file = path.join(project.directory, relative)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, text)
    if (!written.includes(relative)) written.push(relative)
  }
  for (const folder of ['shared', project.runtime.name]) {
    const root = path.join(TEMPLATES, folder)
    for (const relative of filesUnder(root)) {
      const target = relative.replace(/(^|\/)_gitignore$/, '$1.gitignore')
      write(target, readFileSync(path.join(root, relative), 'utf8').replaceAll('{{name}}', project.name))
    }
  }
  write('package.json', `${JSON.stringify(packageJson(project), null, 2)}\n`)
  write('README.md', readme(project.name, project.runtime))
  return written.sort()
}

/** The Node.js versions routeless supports and CI tests (its own `engines`: docs/runtimes.md, "Node.js versions"). */
export const NODE_ENGINES = '^20.19.0 || ^22.12.0 || >=24'

/** The project's package.json: ESM, its scripts, routeless, and the runtime's development tools. */
export function packageJson(project: Project): Record<string, unknown> {
  return {
    name: project.name,
    version: '0.0.0',
    private: true,
    type: 'module',
    engines: { node: NODE_ENGINES },
    scripts: project.runtime.scripts,
    dependencies: { routeless: project.routeless },
    devDependencies: project.runtime.devDependencies,
  }
}

/** Every file below `root`, as paths relative to it with `/` separators. */
function filesUnder(root: string, prefix = ''): string[] {
  return readdirSync(path.join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name
    return entry.isDirectory() ? filesUnder(root, relative) : [relative]
  })
}
