// Raw uWebSockets.js: the ceiling. Routing by uWS patterns, JSON by hand (_uws-raw-app.mjs).
import uWS from 'uWebSockets.js'
import { host, port, ready } from './_common.mjs'
import { uwsRawApp } from './_uws-raw-app.mjs'

const app = uwsRawApp()
app.listen(host, port, (socket) => {
  if (!socket) throw new Error(`cannot listen on ${port}`)
  ready(uWS.us_socket_local_port(socket))
})
