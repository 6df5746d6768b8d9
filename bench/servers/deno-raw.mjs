// Raw Deno.serve, hand-routed (run by deno): the limit on Deno.
import { fetchRaw } from './_fetch-raw.mjs'
import { host, port, ready } from './_common.mjs'

Deno.serve({ port, hostname: host, onListen: ({ port }) => ready(port) }, fetchRaw)
