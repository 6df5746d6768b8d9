/**
 * The request path picks the class and method; the signature is the contract (arguments bound, typed and checked).
 *
 *   GET /            → Default.GET()
 *   GET /?name=you   → Default.GET({ name: 'you' })
 *   GET /add/2/3     → Add.GET(2, 3)          (/add/two/3 answers 400: the signature says number)
 */
export class Default {
  GET({ name = 'world' }: { name?: string } = {}) {
    return { message: `Hello, ${name}!` }
  }
}

export class Add {
  GET(a: number, b: number) {
    return { sum: a + b }
  }
}
