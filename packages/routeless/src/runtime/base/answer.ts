/**
 * Answers a handler's return type declares: `Promise<Created<Glossary, {location: string}> | NotFound<Problem>>`.
 * Each is one `Answer<Status, Body, Headers, MediaType>`; the analysis reads every member of the union into the
 * handler's contract (its OpenAPI responses, its typed client's union), and the generated serializer writes the status,
 * the headers, the media type and the body. A plain `T` means 200 with a `T`.
 * @module
 */

/** Brands an `Answer` (a `Symbol.for`, so that it is recognised when two copies of routeless are loaded). */
export const ANSWER: unique symbol = Symbol.for('routeless.Answer')

/** The headers an answer promises, by lowercase name (`location`, `'retry-after'`); `undefined` leaves one out. */
export type AnswerHeaders = { readonly [name: string]: string | number | undefined }

/** The media type of a JSON body. */
export type Json = 'application/json'

/**
 * One answer: its status (a number literal: `201`, not `number`), its body (`undefined`: none), the headers it
 * promises, and its media type. Made by `answer()` and the helpers named after the statuses (`created`, `notFound` …).
 */
export class Answer<S extends number = number, B = unknown, H extends object = {}, M extends string = Json> {
  declare readonly [ANSWER]: true
  readonly status: S
  readonly body: B
  readonly headers: H
  /** The media type (`application/json`, `text/html`). */
  readonly type: M
  constructor(status: S, body: B, headers: H, type: M) {
    if (!Number.isInteger(status) || status < 200 || status > 599)
      throw new RangeError(`An answer's status must be an integer from 200 to 599, got ${status}`)
    this.status = status
    this.body = body
    this.headers = headers
    this.type = type
  }
}
Object.defineProperty(Answer.prototype, ANSWER, { value: true })

/** Whether `value` is an `Answer` (of this copy of routeless or another). */
export function isAnswer(value: unknown): value is Answer {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ANSWER] === true
}

/** Where a redirect points. */
export type LocationHeader = { location: string }

export type Ok<B, H extends object = {}> = Answer<200, B, H>
export type Created<B, H extends object = {}> = Answer<201, B, H>
export type Accepted<B, H extends object = {}> = Answer<202, B, H>
export type NoContent<H extends object = {}> = Answer<204, undefined, H>
export type ResetContent<H extends object = {}> = Answer<205, undefined, H>
export type MovedPermanently<H extends LocationHeader = LocationHeader> = Answer<301, undefined, H>
export type Found<H extends LocationHeader = LocationHeader> = Answer<302, undefined, H>
export type SeeOther<H extends LocationHeader = LocationHeader> = Answer<303, undefined, H>
export type NotModified<H extends object = {}> = Answer<304, undefined, H>
export type TemporaryRedirect<H extends LocationHeader = LocationHeader> = Answer<307, undefined, H>
export type PermanentRedirect<H extends LocationHeader = LocationHeader> = Answer<308, undefined, H>
export type BadRequest<B, H extends object = {}> = Answer<400, B, H>
export type Unauthorized<B, H extends object = {}> = Answer<401, B, H>
export type Forbidden<B, H extends object = {}> = Answer<403, B, H>
export type NotFound<B, H extends object = {}> = Answer<404, B, H>
export type Conflict<B, H extends object = {}> = Answer<409, B, H>
export type Gone<B, H extends object = {}> = Answer<410, B, H>
export type PreconditionFailed<B, H extends object = {}> = Answer<412, B, H>
export type UnprocessableContent<B, H extends object = {}> = Answer<422, B, H>
export type TooManyRequests<B, H extends object = {}> = Answer<429, B, H>
export type ServiceUnavailable<B, H extends object = {}> = Answer<503, B, H>
/** Problem Details (RFC 9457): what went wrong, in a shape clients know. */
export interface ProblemDetails {
  /** A URI naming the kind of problem (`about:blank` when absent). */
  type?: string
  /** A short summary of the kind of problem. */
  title?: string
  /** The HTTP status. */
  status?: number
  /** What went wrong this time. */
  detail?: string
  /** A URI naming this occurrence. */
  instance?: string
}
/** A Problem Details answer (`application/problem+json`) of status `S`; `X` adds members (`{errors: Issue[]}`). */
export type Problem<S extends number, X extends object = {}, H extends object = {}> = Answer<
  S,
  ProblemDetails & X,
  H,
  'application/problem+json'
>
/** An HTML page (`text/html; charset=utf-8`), 200 unless another status is given. */
export type Html<B extends string = string, S extends number = 200, H extends object = {}> = Answer<
  S,
  B,
  H,
  'text/html'
>
/** Plain text (`text/plain; charset=utf-8`). */
export type Text<B extends string = string, S extends number = 200, H extends object = {}> = Answer<
  S,
  B,
  H,
  'text/plain'
>

/** Any answer: `answer(201, glossary, {location})`, `answer(200, csv, {}, 'text/csv')`. */
export function answer<S extends number, B, H extends object = {}>(status: S, body: B, headers?: H): Answer<S, B, H>
export function answer<S extends number, B, H extends object, M extends string>(
  status: S,
  body: B,
  headers: H,
  type: M,
): Answer<S, B, H, M>
export function answer(
  status: number,
  body: unknown,
  headers?: object,
  type?: string,
): Answer<number, unknown, object, string> {
  return new Answer(status, body, headers ?? {}, type ?? 'application/json')
}

const withBody =
  <S extends number>(status: S) =>
  <B, H extends object = {}>(body: B, headers?: H): Answer<S, B, H> =>
    new Answer(status, body, headers ?? ({} as H), 'application/json')

const bodiless =
  <S extends number>(status: S) =>
  <H extends object = {}>(headers?: H): Answer<S, undefined, H> =>
    new Answer(status, undefined, headers ?? ({} as H), 'application/json')

const redirect =
  <S extends number>(status: S) =>
  (location: string): Answer<S, undefined, LocationHeader> =>
    new Answer(status, undefined, { location }, 'application/json')

// Marked pure: a bundle keeps only the helpers its controllers use.
export const ok = /* @__PURE__ */ withBody(200)
export const created = /* @__PURE__ */ withBody(201)
export const accepted = /* @__PURE__ */ withBody(202)
export const noContent = /* @__PURE__ */ bodiless(204)
export const resetContent = /* @__PURE__ */ bodiless(205)
export const notModified = /* @__PURE__ */ bodiless(304)
export const movedPermanently = /* @__PURE__ */ redirect(301)
export const found = /* @__PURE__ */ redirect(302)
export const seeOther = /* @__PURE__ */ redirect(303)
export const temporaryRedirect = /* @__PURE__ */ redirect(307)
export const permanentRedirect = /* @__PURE__ */ redirect(308)
export const badRequest = /* @__PURE__ */ withBody(400)
export const unauthorized = /* @__PURE__ */ withBody(401)
export const forbidden = /* @__PURE__ */ withBody(403)
export const notFound = /* @__PURE__ */ withBody(404)
export const conflict = /* @__PURE__ */ withBody(409)
export const gone = /* @__PURE__ */ withBody(410)
export const preconditionFailed = /* @__PURE__ */ withBody(412)
export const unprocessableContent = /* @__PURE__ */ withBody(422)
export const tooManyRequests = /* @__PURE__ */ withBody(429)
export const serviceUnavailable = /* @__PURE__ */ withBody(503)

/** A Problem Details answer: `problem(404, {title: 'No such glossary'})` (its `status` member is filled in). */
export function problem<S extends number, X extends ProblemDetails, H extends object = {}>(
  status: S,
  details: X,
  headers?: H,
): Problem<S, X, H> {
  return new Answer(status, { ...details, status }, headers ?? ({} as H), 'application/problem+json')
}

/** An HTML page: `html(page)`, `html(page, 404)`. */
export function html<B extends string>(text: B): Html<B>
export function html<B extends string, S extends number, H extends object = {}>(
  text: B,
  status: S,
  headers?: H,
): Html<B, S, H>
export function html(text: string, status?: number, headers?: object): Answer<number, string, object, string> {
  return new Answer(status ?? 200, text, headers ?? {}, 'text/html')
}

/** Plain text: `text('ok')`, `text(message, 503)`. */
export function text<B extends string>(body: B): Text<B>
export function text<B extends string, S extends number, H extends object = {}>(
  body: B,
  status: S,
  headers?: H,
): Text<B, S, H>
export function text(body: string, status?: number, headers?: object): Answer<number, string, object, string> {
  return new Answer(status ?? 200, body, headers ?? {}, 'text/plain')
}
