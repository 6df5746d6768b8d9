/**
 * The parts of a route table's assembly that a Worker bundle may leave out: reading a handler's signature from
 * its source (for a handler the manifest does not type), the Standard Schema binders of `static params`, the rows
 * `routeless routes` lists, and the survey of the whole tree (an ambiguous sub-resource refused, names that differ
 * only by `-` and `_` warned of). A host with a filesystem assembles with all of them (`ALL_PARTS`); a Worker's entry
 * passes only those its tree needs (`compiler/bundle/entry.ts`), `routeless build --target=worker` having surveyed the tree in
 * node first.
 * @module
 */
import { compileBinder, type Binder, type ParamSpec } from '../contract/standard-schema.ts'
import { dateReviver } from '../contract/dates.ts'
import { readSignature, type Signature } from './arity.ts'
import { routeRow } from './rows.ts'
import { surveyTable } from './survey.ts'
import type { RouteTable } from './table.ts'

export interface TableParts {
  /** A handler's signature from its parameter list, for a handler the manifest does not type. */
  readSignature?: (fn: Function) => Signature
  /** The binder of a `static params` spec that has schemas. */
  compileBinder?: (spec: ParamSpec, argNames: string[]) => Binder
  /** The rows `routeless routes` lists (`RouteTable.rows`), one per handler. */
  routeRow?: typeof routeRow
  /** Throws on an ambiguous tree; answers the warnings of the whole tree. */
  surveyTable?: (table: RouteTable) => string[]
  /** The typed binder's reviver of `Date`s (`runtime/contract/dates.ts`), for a tree whose types hold one. */
  dateReviver?: typeof dateReviver
}

export const ALL_PARTS: Required<TableParts> = { readSignature, compileBinder, routeRow, surveyTable, dateReviver }
