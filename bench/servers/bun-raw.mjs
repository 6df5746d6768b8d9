// Raw Bun.serve, hand-routed (run by bun): the limit on Bun.
import { fetchRaw } from './_fetch-raw.mjs'
import { host, port, ready } from './_common.mjs'

const server = Bun.serve({ fetch: fetchRaw, port, hostname: host })
ready(server.port)
