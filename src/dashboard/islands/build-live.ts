// The build page's live part: `<section data-build-live="<build id>" data-question-id="…">`.
// The server pushes the build's view over server-sent events (GET /_/builds/<id>/events); new
// progress lines are appended and the status badge follows. A new or answered question, or the
// end of the build, needs the server-rendered form or outcome: the page reloads itself once.

interface ProgressEntry {
  at: string
  stage: string
  message: string
}

interface BuildView {
  status: string
  question: { id: string } | null
  progress: ProgressEntry[]
}

const FINISHED = new Set(['succeeded', 'failed'])

/** Same words as the server's progress lines (build.tsx `clockTime`). */
const clockTime = (at: string) => `${new Date(at).toISOString().slice(11, 19)} UTC`

function entryItem(entry: ProgressEntry): HTMLLIElement {
  const li = document.createElement('li')
  const time = document.createElement('time')
  time.dateTime = entry.at
  time.title = entry.at
  time.textContent = clockTime(entry.at)
  const stage = document.createElement('span')
  stage.className = 'stage'
  stage.textContent = entry.stage
  const message = document.createElement('span')
  message.className = 'message'
  message.textContent = entry.message
  li.append(time, stage, message)
  return li
}

function showStatus(holder: Element | null, status: string): void {
  const badge = holder?.querySelector('.badge')
  if (!badge) return
  badge.className = `badge badge-${status.replace(/[^a-z_]/gi, '')}`
  badge.textContent = status.replaceAll('_', ' ')
}

export function startBuildLive(): void {
  const root = document.querySelector<HTMLElement>('[data-build-live]')
  const id = root?.dataset.buildLive
  if (!root || !id || typeof EventSource === 'undefined') return
  const list = root.querySelector('[data-build-progress]')
  const status = root.querySelector('[data-build-status]')
  const shownQuestion = root.dataset.questionId ?? ''
  const source = new EventSource(`/_/builds/${encodeURIComponent(id)}/events`)
  const reload = () => {
    source.close()
    window.location.reload()
  }
  source.addEventListener('build', (event) => {
    const view = JSON.parse((event as MessageEvent<string>).data) as BuildView
    if (list) for (const entry of view.progress.slice(list.children.length)) list.append(entryItem(entry))
    showStatus(status, view.status)
    if (FINISHED.has(view.status) || (view.question?.id ?? '') !== shownQuestion) reload()
  })
  // The job or sample was deleted: the reloaded page says so.
  source.addEventListener('gone', reload)
  // The person's own answer is on its way: its response is the next page, not a reload.
  root.addEventListener('submit', () => source.close())
}
