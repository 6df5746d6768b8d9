/** The TypeScript 7 checker processes a process started: the native API's `--api` children, zombies left out. */
import { spawnSync } from 'node:child_process'

export function checkerProcesses(parent: number = process.pid): number[] {
  const ps = spawnSync('ps', ['-o', 'pid=,stat=,args=', '--ppid', String(parent)], { encoding: 'utf8' })
  return ps.stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, stat, ...args]) => pid && stat && !stat.startsWith('Z') && args.includes('--api'))
    .map(([pid]) => Number(pid))
}
