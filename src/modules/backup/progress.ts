/** Where long operations report how far they are (stderr for the CLI); never the result itself. */
export type Progress = (message: string) => void

/** Reports "n/total" at most once a second, and always the last one. */
export function counter(progress: Progress, label: string, total: number, now = () => Date.now()) {
  let last = 0
  return (done: number) => {
    const t = now()
    if (done !== total && t - last < 1000) return
    last = t
    progress(`${label} ${done}/${total}`)
  }
}
