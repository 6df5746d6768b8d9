/**
 * The string formats whose check is a function (not one regular expression): the same rules as ajv-formats' "full"
 * formats, written here so that generated validators call them without loading Ajv or ajv-formats (`codegen/`).
 * Ajv compiles schemas against these very functions (`compiler/codegen/ajv.ts`), so the validators it makes at start-up and
 * the ones `routeless build` writes call the same code. Formats that are one regular expression (`email`, `uuid` …)
 * are written into the generated code as literals by Ajv and need nothing here.
 * @module
 */

/** A format's check: a function of the string, or of the number for the numeric formats. */
export type FormatCheck = ((value: string) => boolean) | { type: 'number'; validate: (value: number) => boolean }

const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i
const DATE_TIME_SEPARATOR = /t|\s/i
const NOT_URI_FRAGMENT = /\/|:/
const BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/gm
const Z_ANCHOR = /[^\\]\\Z/
const MIN_INT32 = -(2 ** 31)
const MAX_INT32 = 2 ** 31 - 1

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
}

/** `2024-02-29`: a calendar date (RFC 3339 full-date). */
export function date(text: string): boolean {
  const m = DATE.exec(text)
  if (!m) return false
  const year = +m[1]!
  const month = +m[2]!
  const day = +m[3]!
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]!)
}

/** `09:05:00Z` (RFC 3339 full-time; `strictZone`: the offset is required), leap seconds at 23:59:60 UTC. */
function timeOf(strictZone: boolean): (text: string) => boolean {
  return (text) => {
    const m = TIME.exec(text)
    if (!m) return false
    const hr = +m[1]!
    const min = +m[2]!
    const sec = +m[3]!
    const sign = m[5] === '-' ? -1 : 1
    const zoneHr = +(m[6] || 0)
    const zoneMin = +(m[7] || 0)
    if (zoneHr > 23 || zoneMin > 59 || (strictZone && !m[4])) return false
    if (hr <= 23 && min <= 59 && sec < 60) return true
    const utcMin = min - zoneMin * sign
    const utcHr = hr - zoneHr * sign - (utcMin < 0 ? 1 : 0)
    return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61
  }
}

function dateTimeOf(strictZone: boolean): (text: string) => boolean {
  const time = timeOf(strictZone)
  return (text) => {
    const parts = text.split(DATE_TIME_SEPARATOR)
    return parts.length === 2 && date(parts[0]!) && time(parts[1]!)
  }
}

// Pure: a bundle that uses none of them drops them (a Worker's takes only the formats its types name).
export const time = /* @__PURE__ */ timeOf(true)
export const isoTime = /* @__PURE__ */ timeOf(false)
export const dateTime = /* @__PURE__ */ dateTimeOf(true)
export const isoDateTime = /* @__PURE__ */ dateTimeOf(false)

/** RFC 3986 (the expression ajv-formats uses, MIT licence), made at its first use. */
let URI: RegExp | undefined

export function uri(text: string): boolean {
  URI ??= new RegExp(
    [
      "^(?:[a-z][a-z0-9+\\-.]*:)(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(",
      '?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){',
      '4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){',
      '0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9',
      'a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(',
      '?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:)',
      '{0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a',
      "-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0",
      "-4]\\d|[01]?\\d\\d?)|(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/(?:[a-z0-9\\-._~",
      "!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[",
      "a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(",
      "?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\\?(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[",
      "0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$",
    ].join(''),
    'i',
  )
  return NOT_URI_FRAGMENT.test(text) && URI.test(text)
}

export function byte(text: string): boolean {
  BYTE.lastIndex = 0
  return BYTE.test(text)
}

export function regex(text: string): boolean {
  if (Z_ANCHOR.test(text)) return false
  try {
    new RegExp(text)
    return true
  } catch {
    return false
  }
}

export const int32: FormatCheck = {
  type: 'number',
  validate: (n) => Number.isInteger(n) && n <= MAX_INT32 && n >= MIN_INT32,
}
export const int64: FormatCheck = { type: 'number', validate: (n) => Number.isInteger(n) }
export const float: FormatCheck = { type: 'number', validate: (n) => Number.isFinite(n) }
export const double: FormatCheck = { type: 'number', validate: (n) => Number.isFinite(n) }

/** Every format checked by a function, by its JSON Schema name: what Ajv is given, and what generated code calls. */
export const FORMATS: Record<string, FormatCheck> = {
  date,
  time,
  'date-time': dateTime,
  'iso-time': isoTime,
  'iso-date-time': isoDateTime,
  uri,
  byte,
  regex,
  int32,
  int64,
  float,
  double,
}

/**
 * The name `routeless/worker` exports a format's check under (`format_date_time`): a Worker bundle's entry imports
 * only the checks its generated validators call (`compiler/bundle/entry.ts`), so the others stay out of the bundle.
 */
export function formatExport(name: string): string {
  return `format_${name.replace(/-/g, '_')}`
}
