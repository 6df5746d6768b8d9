/** `sandbox_result`: the form field that forces a sandbox outcome (src/sandbox/decide.ts lists the codes). */

/** The form part of the products that take it. */
export interface SandboxResultPart {
  /**
   * Forces a sandbox outcome (see the README). The spec types it `number`: `1220.0`, as the Python SDK formats a
   * float, is the code 1220; a fraction other than zero is invalid.
   * @integer
   * @minimum 0
   * @maximum 999999999
   * @errorMessage Field 'sandbox_result' is invalid.
   */
  sandbox_result?: number
}

export function sandboxResultOf(form: SandboxResultPart): { sandbox_result?: number } {
  return form.sandbox_result === undefined ? {} : { sandbox_result: form.sandbox_result }
}
