/** Counts the Fetch `Request` objects built while `fn` runs (the fast paths promise to build none). */
export async function countRequestsBuilt(fn: (built: () => number) => Promise<void>): Promise<void> {
  const Original = globalThis.Request
  let built = 0
  globalThis.Request = class extends Original {
    constructor(...args: ConstructorParameters<typeof Request>) {
      super(...args)
      built++
    }
  } as typeof Request
  try {
    await fn(() => built)
  } finally {
    globalThis.Request = Original
  }
}
