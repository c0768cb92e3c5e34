import { type Static, t } from 'elysia'

export const AnswerBody = t.Object(
  {
    questionId: t.String({ minLength: 1, maxLength: 100 }),
    answer: t.Union([
      t.String({ maxLength: 10_000 }),
      /** A multiple choice; `[]` declines it (none of these). */
      t.Array(t.String({ maxLength: 10_000 }), { maxItems: 100 }),
      /** A `demonstrate` question's answer: the recording that shows the task. */
      t.Object({ recordingId: t.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
      /** A question about the screen (`pointable`): the element pointed at, or a spot in the window. */
      t.Object(
        {
          point: t.Union([
            t.Object({ ref: t.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
            t.Object(
              {
                x: t.Number({ minimum: -100_000, maximum: 100_000 }),
                y: t.Number({ minimum: -100_000, maximum: 100_000 }),
              },
              { additionalProperties: false },
            ),
          ]),
        },
        { additionalProperties: false },
      ),
    ]),
  },
  { additionalProperties: false },
)
export type AnswerBody = Static<typeof AnswerBody>
