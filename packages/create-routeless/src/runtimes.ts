/**
 * The runtimes a project can start on, and what differs between them: the package scripts, the development tools,
 * the commands printed at the end, and the template folder that holds the runtime's own files (its test, its
 * TypeScript or runtime configuration). Everything else comes from templates/shared.
 * @module
 */

export const RUNTIMES = ['node', 'bun', 'deno', 'workers'] as const
export type RuntimeName = (typeof RUNTIMES)[number]

export interface Runtime {
  name: RuntimeName
  /** One line for the prompt and the help. */
  label: string
  scripts: Record<string, string>
  devDependencies: Record<string, string>
  /** The commands a user types next, after `cd <dir>`. */
  next: { install: string; dev: string; test: string; build: string; deploy?: string }
}

/** Development tools, at the versions the starter was tested with. */
const TYPESCRIPT = { typescript: '~7.0.2' }
/**
 * TypeScript 7's API (`typescript/unstable/sync`, which routeless reads signatures with) talks to its checker through
 * Node's own file descriptors: Bun and Deno cannot host it yet, so their starters keep 5.9 (the classic API).
 */
const TYPESCRIPT_CLASSIC = { typescript: '^5.9.3' }
const NODE_TYPES = { '@types/node': '^20.19.25' }
/** Runs node:test on .ts files (node 20 cannot load them itself); routeless depends on the same tsx. */
const TSX = { tsx: '^4.23.15' }

export const RUNTIME: Record<RuntimeName, Runtime> = {
  node: {
    name: 'node',
    label: 'node: the routeless CLI on node:http, tests with node:test',
    scripts: {
      dev: 'routeless --watch',
      start: 'routeless',
      test: 'tsx --test test/*.test.ts',
      build: 'tsc --noEmit && routeless build',
    },
    devDependencies: { ...NODE_TYPES, ...TSX, ...TYPESCRIPT },
    next: { install: 'npm install', dev: 'npm run dev', test: 'npm test', build: 'npm run build' },
  },
  bun: {
    name: 'bun',
    label: 'bun: the routeless CLI on Bun.serve, tests with bun test',
    scripts: {
      dev: 'bun --bun routeless --watch',
      start: 'bun --bun routeless',
      test: 'bun test',
      build: 'tsc --noEmit && bun --bun routeless build',
    },
    devDependencies: { '@types/bun': '^1.4.5', ...TYPESCRIPT_CLASSIC },
    next: { install: 'bun install', dev: 'bun run dev', test: 'bun test', build: 'bun run build' },
  },
  deno: {
    name: 'deno',
    label: 'deno: main.ts on Deno.serve, tests with deno test',
    // deno.json's tasks are what Deno users run; these let `npm run` do the same.
    scripts: { dev: 'deno task dev', start: 'deno task start', test: 'deno task test', build: 'deno task build' },
    devDependencies: { ...NODE_TYPES, ...TYPESCRIPT_CLASSIC },
    next: { install: 'deno install', dev: 'deno task dev', test: 'deno task test', build: 'deno task build' },
  },
  workers: {
    name: 'workers',
    label: 'workers: Cloudflare Workers (routeless build --target=worker, wrangler), tests with node:test',
    scripts: {
      dev: 'wrangler dev',
      test: 'tsx --test test/*.test.ts',
      build: 'tsc --noEmit && routeless build --target=worker --out=dist/worker.js',
      deploy: 'wrangler deploy',
    },
    devDependencies: { ...NODE_TYPES, ...TSX, ...TYPESCRIPT, wrangler: '^4.40.0' },
    next: {
      install: 'npm install',
      dev: 'npm run dev',
      test: 'npm test',
      build: 'npm run build',
      deploy: 'npm run deploy',
    },
  },
}

/** The runtime named `value`, or undefined. */
export function runtimeNamed(value: string): Runtime | undefined {
  return (RUNTIMES as readonly string[]).includes(value) ? RUNTIME[value as RuntimeName] : undefined
}
