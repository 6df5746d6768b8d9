/**
 * A forgiving XML/HTML tokenizer: tags, text and the rest (comments, CDATA, processing instructions, doctype), each
 * with its exact source text so that joining every token's `raw` gives the input back unchanged.
 */

export type Token =
  | { kind: 'text'; raw: string }
  | { kind: 'open'; raw: string; name: string; selfClosing: boolean; attributes: string }
  | { kind: 'close'; raw: string; name: string }
  | { kind: 'other'; raw: string }

const TAG = /^<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s/>"'=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/
const SPECIAL: Array<[string, string]> = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
]

/** Elements whose content is raw text in HTML (never parsed for tags). */
const RAW_TEXT_HTML = new Set(['script', 'style'])

export function tokenize(input: string, html: boolean): Token[] {
  const tokens: Token[] = []
  let text = ''
  let i = 0
  const flushText = () => {
    if (text) tokens.push({ kind: 'text', raw: text })
    text = ''
  }
  while (i < input.length) {
    const lt = input.indexOf('<', i)
    if (lt < 0) {
      text += input.slice(i)
      break
    }
    text += input.slice(i, lt)
    i = lt
    const rest = input.slice(i)
    const special = SPECIAL.find(([open]) => rest.startsWith(open))
    if (special) {
      const end = rest.indexOf(special[1], special[0].length)
      if (end >= 0) {
        flushText()
        const raw = rest.slice(0, end + special[1].length)
        tokens.push({ kind: 'other', raw })
        i += raw.length
        continue
      }
    }
    const m = TAG.exec(rest)
    if (!m) {
      text += '<'
      i += 1
      continue
    }
    flushText()
    const [raw, slash, name, attributes, selfClose] = m
    const lower = html ? name!.toLowerCase() : name!
    if (slash) tokens.push({ kind: 'close', raw, name: lower })
    else tokens.push({ kind: 'open', raw, name: lower, selfClosing: selfClose === '/', attributes: attributes ?? '' })
    i += raw.length
    if (html && !slash && !selfClose && RAW_TEXT_HTML.has(lower)) {
      // script/style: everything up to the closing tag is one text token, never parsed.
      const close = input.toLowerCase().indexOf(`</${lower}`, i)
      const end = close < 0 ? input.length : close
      if (end > i) tokens.push({ kind: 'text', raw: input.slice(i, end) })
      i = end
    }
  }
  flushText()
  return tokens
}

/** The value of attribute `name` in a tag's attribute text, or undefined. */
export function attribute(attributes: string, name: string): string | undefined {
  const re = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'=<>\`]+))`, 'i')
  const m = re.exec(attributes)
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined
}
