// POST /echo → echo.mjs Default.POST(): the parsed JSON body, echoed.
export class Default {
  POST() {
    return this.body
  }
}
