/**
 * The project's package name (the directory's last part) and the directory's state: a project is only written into
 * a directory that does not exist or is empty.
 * @module
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** Why `name` cannot be an npm package name, or undefined when it can (npm's rules for new packages). */
export function invalidPackageName(name: string): string | undefined {
  if (name.length === 0) return 'it is empty'
  if (name.length > 214) return 'it is longer than 214 characters'
  if (name !== name.toLowerCase()) return 'it has capital letters'
  if (name.trim() !== name || /\s/.test(name)) return 'it has spaces'
  if (/^[._]/.test(name)) return 'it starts with . or _'
  if (/^(node_modules|favicon\.ico)$/.test(name)) return 'that name is reserved'
  if (!/^[a-z0-9~-][a-z0-9._~-]*$/.test(name)) return 'only a-z, 0-9, and - . _ ~ may appear in it'
  return undefined
}

/** The package name of a project written to `directory`: its last part. */
export function packageNameOf(directory: string): string {
  return path.basename(path.resolve(directory))
}

/** Why the project cannot be written to `directory`, or undefined when it does not exist or is empty. */
export function unusableDirectory(directory: string): string | undefined {
  if (!existsSync(directory)) return undefined
  if (!statSync(directory).isDirectory()) return `${directory} exists and is not a directory`
  const entries = readdirSync(directory).filter((e) => e !== '.git')
  if (entries.length > 0)
    return `${directory} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}): choose a new directory, or empty this one`
  return undefined
}

/** Why a project cannot be written to `directory` (its name, or what is in it), or undefined when it can. */
export function directoryProblem(directory: string): string | undefined {
  const name = packageNameOf(directory)
  const invalid = invalidPackageName(name)
  if (invalid) return `Invalid project name "${name}" (the directory's name is the package's): ${invalid}`
  return unusableDirectory(directory)
}
