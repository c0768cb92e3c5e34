/** The builder's question kinds (DESIGN §2), shared by the builder, the builds table and the API. */
export type QuestionKind =
  | 'choose_window'
  | 'map_field'
  /** Which of a drop-down's (or radio group's) options a caller's word means; the answer becomes a value map. */
  | 'map_option'
  | 'fill_required'
  | 'choose_submit'
  | 'choose_outputs'
  | 'free_text'
  /**
   * "Show me": the builder cannot find its way and asks the person to do the task once on the
   * desktop while it records; the answer is a recording id (src/protocol/recording.ts).
   */
  | 'demonstrate'

/** A question as the builder asks it; the builds table adds its id. */
export interface Question {
  kind: QuestionKind
  /** Phrased for a person who knows the business, not the code. */
  text: string
  options: { value: string; label: string }[]
  multiple: boolean
  /** `demonstrate`: the window to record in (the app's window, as the builder left it). */
  windowId?: string
}

/** The answer value a choice question always accepts: none of its options fits. */
export const NONE_OF_THESE = '__none__'

/** A decline: the none-of-these value, or an empty list for a multiple choice. */
export const isDecline = (answer: string | string[]) =>
  Array.isArray(answer) ? answer.length === 0 || answer.includes(NONE_OF_THESE) : answer === NONE_OF_THESE
