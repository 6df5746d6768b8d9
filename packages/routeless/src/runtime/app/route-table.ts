/**
 * `buildRouteTable` as `routeless` exports it: the route table of a controller tree, with what development has at
 * hand by default (Ajv's validators compiled at start-up, TypeScript's analysis of the files the manifest does not
 * describe: `build-tools.ts`). `createApp` builds its table so too, with the built module's validators.
 * @module
 */
import type { ModuleSource } from '../base/module-source.ts'
import { buildRouteTable as buildTable, type BuildOptions } from '../routing/route-table.ts'
import type { RouteTable } from '../routing/table.ts'
import { ALL_LIFECYCLE_PARTS } from '../handlers/lifecycle-parts.ts'
import { buildTools } from './build-tools.ts'

export type RouteTableOptions = Omit<BuildOptions, 'validators'> & Partial<Pick<BuildOptions, 'validators'>>

/** Loads every module (in parallel) and assembles the route table. Throws a coded `RoutelessError` on any mistake. */
export async function buildRouteTable(sources: ModuleSource[], options: RouteTableOptions = {}): Promise<RouteTable> {
  const table = await buildTable(sources, {
    validators: buildTools.ajvValidators,
    analysis: buildTools.analysis,
    ...options,
  })
  // For `new Application(table)`, which links every handler's code and gives it what it calls.
  table.evaluate = await buildTools.evaluator()
  table.lifecycle = ALL_LIFECYCLE_PARTS
  return table
}
