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
  /**
   * "Point at it": nothing the builder found fits, so the person points at the thing on the
   * screen (a click on the live preview, or an element of `GET /_builds/<id>/screen`).
   */
  | 'point'

/** A question as the builder asks it; the builds table adds its id. */
export interface Question {
  kind: QuestionKind
  /** Phrased for a person who knows the business, not the code. */
  text: string
  options: { value: string; label: string }[]
  multiple: boolean
  /** `demonstrate`: the window to record in (the app's window, as the builder left it). */
  windowId?: string
  /**
   * The question is about something on the screen of `windowId`: besides an option, it may be
   * answered by pointing at it (`{"point": {"x", "y"}}` or `{"point": {"ref"}}` from
   * `GET /_builds/<id>/screen`). The builder receives the point as `point:<x>,<y>`.
   */
  pointable?: boolean
}

/** The answer value a choice question always accepts: none of its options fits. */
export const NONE_OF_THESE = '__none__'

/** A pointing answer as the builder receives it: a spot in the window's coordinates. */
export const pointAnswer = (x: number, y: number) => `point:${Math.round(x)},${Math.round(y)}`

/** The spot of a pointing answer, or undefined for any other answer. */
export function pointOf(answer: string | string[]): { x: number; y: number } | undefined {
  const m = typeof answer === 'string' ? /^point:(-?\d+),(-?\d+)$/.exec(answer) : null
  return m ? { x: Number(m[1]), y: Number(m[2]) } : undefined
}

/** A decline: the none-of-these value, or an empty list for a multiple choice. */
export const isDecline = (answer: string | string[]) =>
  Array.isArray(answer) ? answer.length === 0 || answer.includes(NONE_OF_THESE) : answer === NONE_OF_THESE
