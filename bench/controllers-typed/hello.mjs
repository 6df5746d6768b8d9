// GET /hello → hello.mjs Default.GET()
export class Default {
  GET() {
    return 'Hello, World!'
  }
}
