/**
 * The API reference page (`/docs`, the `docs` option) in a real browser — Debian's Chromium through playwright-core:
 * it renders every operation of this API's OpenAPI document, and "Try it out" on GET /healthz answers 200.
 */
import { describeDocsPage } from '@routeless/example-kit/testing'
import { startServer } from './helpers/server.ts'

describeDocsPage(startServer)
