/**
 * TypeScript ≥ 7's checker process and its project, for one analysis or for many (`--watch`). The project is a
 * tsconfig written for the analysis (the controller files, the app's tsconfig extended, the same overrides as the
 * classic backend), in a temporary directory removed when the session closes.
 *
 * Kept open, the session is updated rather than opened again: before each analysis the local files of its program
 * (outside `node_modules`) are compared with what they were when the checker last read them (size and time, then the
 * text's hash), and `updateSnapshot` is told which changed or were deleted; the checker process then parses those
 * files again, and the next checker answers from the same process. A controller the session has not analysed yet
 * joins the roots: the tsconfig is written again and reported changed (`invalidateAll` would not read it again).
 * `node_modules` is not compared: a package installed or updated is seen after a restart.
 * @module
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type * as Sync from 'typescript/unstable/sync'
import { BLOB_AND_FILE } from '../../runtime/contract/blob-file.ts'
import { DEFAULT_OPTIONS, hasDom, OVERRIDES } from './reader-common.ts'
import { findConfigFile } from './type-reader.ts'
import { beginSnapshot } from './deferred-snapshot.ts'

type SyncModule = typeof Sync

/** A local file as the checker last read it, and when that was read (ms since the epoch). */
interface Seen {
  size: number
  mtime: number
  hash: string
  read: number
}

export interface SessionHooks {
  /** After an analysis on a kept session: the objects still in use (the bridge forgets the others). */
  idle?(live: object[]): void
}

export class NativeSession {
  private readonly api: Sync.API
  private readonly dir: string
  private readonly config: string
  private snapshot: Sync.Snapshot | undefined
  private project: Sync.Project | undefined
  private roots = new Set<string>()
  private readonly seen = new Map<string, Seen>()
  /** The directories of the files seen, with the source files each held when last listed. */
  private readonly listed = new Map<string, Set<string>>()
  private closed = false
  /** Reads the answer of the `updateSnapshot` that `warm` wrote (the checker's first snapshot, released at once). */
  private warming: (() => void) | undefined

  /** A kept session's temporary directory removed when the process exits without closing it. */
  private readonly cleanUp: (() => void) | undefined
  /** The analysis's folder is the system's temporary one (`analysisDir`): the app's `@types` are named to it. */
  private readonly outside: boolean

  /** `kept`: for many analyses (`--watch`): the program's local files are remembered to tell the next what changed. */
  constructor(
    private readonly version: string,
    sync: SyncModule,
    private readonly cwd: string,
    private readonly hooks: SessionHooks = {},
    private readonly kept = false,
  ) {
    const { dir, outside } = analysisDir(cwd)
    this.dir = dir
    this.outside = outside
    this.cleanUp = kept ? () => rmSync(dir, { recursive: true, force: true }) : undefined
    if (this.cleanUp) process.once('exit', this.cleanUp)
    this.config = path.join(this.dir, 'tsconfig.json')
    try {
      this.api = new sync.API({ cwd })
    } catch (error) {
      rmSync(this.dir, { recursive: true, force: true })
      throw error
    }
    // A kept checker does not keep the process alive (its pipes are read synchronously, never by the event loop).
    const child = this.child()
    child?.unref?.()
    child?.stdin?.unref?.()
    child?.stdout?.unref?.()
  }

  /** The project over `files` (and every file asked before that still exists), the checker up to date with the disk. */
  open(files: string[]): Sync.Project {
    if (this.closed) throw new Error('the TypeScript checker was closed')
    const finish = this.warming
    this.warming = undefined // read once, even when it throws
    finish?.()
    const warmed = finish !== undefined
    const roots = new Set([...this.roots].filter((f) => existsSync(f)))
    for (const file of files) roots.add(path.resolve(file))
    const rootsChanged = roots.size !== this.roots.size || [...roots].some((f) => !this.roots.has(f))
    if (rootsChanged) {
      this.roots = roots
      this.writeConfig()
    }
    let params: Parameters<Sync.API['updateSnapshot']>[0]
    // Warmed, the checker holds the project already: its tsconfig, rewritten with the roots, is reported changed.
    if (!this.snapshot && warmed) params = { openProjects: [this.config], fileChanges: { changed: [this.config] } }
    else if (!this.snapshot) params = { openProjects: [this.config] }
    else {
      const { changed, deleted } = this.changes()
      // A file new in a directory the program reads from is created (a module an import named before it existed, a
      // file deleted and written again); so is a new root the checker has not read. The rewritten tsconfig, changed,
      // reloads the project's files.
      const created = this.appeared()
      if (rootsChanged) for (const f of roots) if (!this.seen.has(f) && !created.includes(f)) created.push(f)
      if (rootsChanged) changed.push(this.config)
      if (changed.length + created.length + deleted.length > 0) params = { fileChanges: { changed, created, deleted } }
    }
    if (params || !this.project) {
      const previous = this.snapshot
      const reading = Date.now()
      const snapshot = (this.snapshot = this.api.updateSnapshot(params))
      previous?.dispose()
      const project = snapshot.getProject(this.config)
      if (!project) throw new Error(`TypeScript ${this.version} opened no project for ${this.config}`)
      this.project = project
      if (this.kept) this.learn(project, reading) // (one analysis compares nothing: no file is hashed)
    }
    return this.project
  }

  /**
   * Starts opening the program of the app's tsconfig before the controllers are known, and returns at once: the
   * checker parses its libraries and `types` (most of a program: 4.9 of the starter's 5.3 MB) while the caller goes on
   * (the CLI loads the config and the controllers), and the first `open` reads its answer and only adds its files
   * (~5 ms against ~200 ms for a program opened with them). False where the API cannot defer (`deferred-snapshot.ts`).
   */
  warm(): boolean {
    if (this.closed || this.snapshot || this.warming) return false
    this.writeWarmConfig()
    this.warming = beginSnapshot(this.api, { openProjects: [this.config] })
    return this.warming !== undefined
  }

  /** After an analysis: what the kept session holds on to (for the bridge, which forgets the rest). */
  idle(): void {
    if (this.closed || !this.hooks.idle) return
    this.hooks.idle([this.api, ...(this.snapshot ? [this.snapshot] : []), ...(this.project ? [this.project] : [])])
  }

  /**
   * Ends the checker's process. `api.close()` alone sends it SIGTERM, on which it may print `context canceled` on our
   * stderr (it inherits it) before it exits — a stray line in `routeless check`'s or `build`'s output, now and then.
   * So the snapshot is released first, while the process answers, then the process is killed outright (SIGKILL: it
   * prints nothing), and `close()` is left only the channel to close.
   */
  close(): void {
    if (this.closed) return
    this.closed = true
    try {
      try {
        this.snapshot?.dispose() // a round trip: throws when the process died
      } catch {}
      this.snapshot = undefined
      this.project = undefined
      this.child()?.kill('SIGKILL')
      this.api?.close()
    } catch {
      // The process is gone or going: nothing is left to release.
    } finally {
      rmSync(this.dir, { recursive: true, force: true })
      if (this.cleanUp) process.off('exit', this.cleanUp)
    }
  }

  /** The checker's process (the sync API's; undefined through the bridge, whose worker owns it). */
  private child() {
    type Child = {
      kill(signal: string): void
      unref?(): void
      stdin?: { unref?(): void }
      stdout?: { unref?(): void }
    }
    return (this.api as unknown as { client?: { channel?: { child?: Child } } })?.client?.channel?.child
  }

  /** The local files changed or deleted since the checker last read them (and their new state remembered). */
  private changes(): { changed: string[]; deleted: string[] } {
    const changed: string[] = []
    const deleted: string[] = []
    for (const [file, before] of this.seen) {
      const now = state(file, before)
      if (!now) {
        deleted.push(file)
        this.seen.delete(file)
      } else if (now !== before) {
        this.seen.set(file, now)
        if (now.hash !== before.hash) changed.push(file)
      }
    }
    return { changed, deleted }
  }

  /**
   * Remembers the state of the program's local files not seen yet, and lists their directories. A file written from
   * shortly before `reading` (when the checker started reading) on may have changed after the checker read it: it is
   * remembered with no hash, so that the next analysis reports it changed once.
   */
  private learn(project: Sync.Project, reading: number): void {
    for (const name of project.program.getSourceFileNames()) {
      if (this.seen.has(name) || name.includes('/node_modules/') || !path.isAbsolute(name)) continue
      if (name.startsWith(this.dir)) continue
      const now = state(name)
      if (!now) continue
      this.seen.set(name, now.mtime >= reading - 2000 ? { ...now, hash: '' } : now)
      const dir = path.dirname(name)
      if (!this.listed.has(dir)) this.listed.set(dir, sourcesIn(dir))
    }
  }

  /** The source files new in the listed directories since they were last listed. */
  private appeared(): string[] {
    const created: string[] = []
    for (const [dir, before] of this.listed) {
      const now = sourcesIn(dir)
      for (const name of now) if (!before.has(name)) created.push(path.join(dir, name))
      this.listed.set(dir, now)
    }
    return created
  }

  /**
   * The tsconfig `warm` opens: the app's extended with a placeholder as its only file. Written without asking the
   * checker (which `parseConfigFile` would, waiting for its process to start): the automatic `@types` are looked up
   * from the app's directory whatever its options, and the Blob and File declarations are left to the analysis's own
   * tsconfig, written by the first `open`, which the checker then reads with most of its files parsed already.
   */
  private writeWarmConfig(): void {
    const appConfig = findConfigFile(this.cwd)
    const placeholder = path.join(this.dir, 'warm.ts')
    writeFileSync(placeholder, 'export {}\n')
    const options = appConfig
      ? { ...OVERRIDES, ...(this.outside ? { typeRoots: typeRoots(appConfig) } : {}) }
      : { ...DEFAULT_OPTIONS, ...OVERRIDES }
    const json: Record<string, unknown> = { compilerOptions: options, files: [placeholder], include: [] }
    if (appConfig) json.extends = appConfig
    writeFileSync(this.config, JSON.stringify(json))
  }

  /**
   * The analysis's tsconfig: the app's extended (its `paths`, its module resolution, its `types`), the controllers as
   * its files. Without an app tsconfig, the classic backend's defaults, and routeless's `Blob` and `File` when the
   * library has no DOM.
   */
  private writeConfig(): void {
    const appConfig = findConfigFile(this.cwd)
    const options: Record<string, unknown> = { ...(appConfig ? {} : DEFAULT_OPTIONS), ...OVERRIDES }
    let lib: unknown = DEFAULT_OPTIONS.lib
    if (appConfig) {
      const parsed = this.api.parseConfigFile(appConfig).options
      lib = parsed.lib
      // A tsconfig's `@types` (the automatic ones, and those its `types` names) are looked up from its own directory:
      // from the system's temporary one, the app's are named (where `types: ["node"]` would find no `@types/node`).
      // (Not from the app's `.routeless/`: TypeScript 7 looks a `types` name up nowhere else once `typeRoots` is set.)
      if (this.outside && parsed.typeRoots === undefined) options.typeRoots = typeRoots(appConfig)
    }
    const roots = [...this.roots]
    if (!hasDom(lib)) {
      const ambient = path.join(this.dir, 'blob-file.d.ts')
      writeFileSync(ambient, BLOB_AND_FILE)
      roots.push(ambient)
    }
    const json: Record<string, unknown> = { compilerOptions: options, files: roots, include: [] }
    if (appConfig) json.extends = appConfig
    writeFileSync(this.config, JSON.stringify(json))
  }
}

/**
 * A file's size, time and hash; `before` when its size and time are the same and it was read well after that time (a
 * write in the same tick of the file system's clock keeps the time: such a file is hashed again, as git does);
 * undefined when it is gone.
 */
function state(file: string, before?: Seen): Seen | undefined {
  try {
    const read = Date.now()
    const stat = statSync(file)
    if (before && stat.size === before.size && stat.mtimeMs === before.mtime && before.read - before.mtime > 2000)
      return before
    const hash = createHash('sha1').update(readFileSync(file)).digest('hex')
    if (before && hash === before.hash) return { ...before, mtime: stat.mtimeMs, read }
    return { size: stat.size, mtime: stat.mtimeMs, hash, read }
  } catch {
    return undefined
  }
}

/** The names of the TypeScript and JavaScript sources in `dir` (none when it is gone). */
function sourcesIn(dir: string): Set<string> {
  try {
    return new Set(readdirSync(dir).filter((name) => SOURCE.test(name)))
  } catch {
    return new Set()
  }
}

const SOURCE = /\.[cm]?[jt]sx?$/

/**
 * A new folder for the analysis's tsconfig and the files it adds, in the app's `.routeless/`: the names a tsconfig
 * lists in `types` that are not under `@types` (`bun-types`, `vite/client`) are looked up in the node_modules above
 * the tsconfig that opens the program, as tsc looks them up above the app's, and from the system's temporary folder
 * none would be found (their types read as `any`, their values unchecked). There when the app's folder cannot be
 * written.
 */
function analysisDir(cwd: string): { dir: string; outside: boolean } {
  try {
    const parent = path.join(cwd, '.routeless')
    mkdirSync(parent, { recursive: true })
    return { dir: mkdtempSync(path.join(parent, 'analysis-')), outside: false }
  } catch {
    return { dir: mkdtempSync(path.join(tmpdir(), 'routeless-analysis-')), outside: true }
  }
}

/** The `node_modules/@types` folders TypeScript looks in for a tsconfig in `configFile`'s directory. */
function typeRoots(configFile: string): string[] {
  const out: string[] = []
  for (let d = path.dirname(configFile); ; d = path.dirname(d)) {
    const roots = path.join(d, 'node_modules', '@types')
    if (existsSync(roots)) out.push(roots)
    if (path.dirname(d) === d) return out
  }
}
