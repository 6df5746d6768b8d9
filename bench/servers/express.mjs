// Express 5 with express.json().
import express from 'express'
import { echoParams, host, port, ready } from './_common.mjs'

const app = express()
app.disable('x-powered-by')
app.disable('etag')
app.get('/hello', (_req, res) => {
  res.json('Hello, World!')
})
app.get('/users/:user/posts/:post', (req, res) => {
  res.json(echoParams(req.params.user, req.params.post, req.query.x))
})
app.post('/echo', express.json(), (req, res) => {
  res.json(req.body)
})
const server = app.listen(port, host, () => ready(server.address().port))
