/**
 * Internal: the part of Bun's API the Bun server uses (`Bun.serve`, its server and its WebSockets), declared here so
 * that the package needs no `@types/bun`.
 * @module
 */
import type { HeadersInput } from '../../base/headers.ts'

export interface BunWebSocket<Data> {
  readonly data: Data
  readonly remoteAddress: string
  send(data: string | Uint8Array): number
  close(code?: number, reason?: string): void
}

export interface BunServer {
  readonly port: number
  readonly hostname: string
  /** Stops listening; `true` also closes open connections, else the promise waits for them to finish. */
  stop(closeActiveConnections?: boolean): Promise<void>
  upgrade(request: Request, options?: { data?: unknown; headers?: HeadersInput }): boolean
  requestIP(request: Request): { address: string } | null
}

export interface BunServeOptions<Data> {
  hostname: string
  port: number
  reusePort?: boolean
  maxRequestBodySize?: number
  fetch(this: BunServer, request: Request, server: BunServer): Response | Promise<Response | undefined> | undefined
  error?(error: Error): Response
  websocket?: {
    maxPayloadLength?: number
    idleTimeout?: number
    open?(ws: BunWebSocket<Data>): void
    message?(ws: BunWebSocket<Data>, message: string | Uint8Array): void
    close?(ws: BunWebSocket<Data>, code: number, reason: string): void
  }
}

export interface BunGlobal {
  serve<Data>(options: BunServeOptions<Data>): BunServer
  version: string
}

/** `globalThis.Bun` when this process runs on Bun. */
export function bunRuntime(): BunGlobal | undefined {
  return (globalThis as { Bun?: BunGlobal }).Bun
}
