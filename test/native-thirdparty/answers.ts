// What every native app's answer sheet reads from the builder's questions (test/native-thirdparty/<app>/).
import type { Question } from '../../src/protocol/questions.ts'

/** The value of the first option whose label matches the first pattern that matches any option. */
export const option = (q: Question, ...labels: RegExp[]) => {
  for (const label of labels) {
    const found = q.options.find((o) => label.test(o.label.trim()))
    if (found) return found.value
  }
  return undefined
}

/** The caller's input a map_field question is about (“Where should the value of “email” …”). */
export const inputOf = (q: Question) => /value of “([^”]+)”/.exec(q.text)?.[1]
