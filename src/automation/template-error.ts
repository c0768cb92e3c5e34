// The one error templates throw: a missing input (an optional step is skipped) or a bad template.
export class TemplateError extends Error {
  override readonly name = 'TemplateError'
  constructor(
    readonly code: 'INPUT_MISSING' | 'TEMPLATE_INVALID',
    message: string,
    /** The input path that had no value (INPUT_MISSING) or a value the template cannot use. */
    readonly path?: string,
  ) {
    super(message)
  }
}
