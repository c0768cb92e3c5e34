// "Show me" on the build page: `<section data-demonstrate="<build id>" data-recording-id="…">`.
// The card polls who is demonstrating (GET /_/builds/<id>/recordings/current): when someone
// starts or ends a recording the server-rendered card changes, so the page reloads once; while it
// runs, the count and the recent actions (in the recorder's words) follow. The person who started
// it gets an interactive preview, `[data-remote-input="<url>"]`: a click on the picture is sent as
// a click at the window's own pixel, the pointer resting on it as a hover there, and keys pressed
// while it has focus as typed text or named keys, one request at a time and in order. Nothing the person types is written into the page:
// the list shows only what the recorder reports ("Typed a secret…" for password fields).
import { REMOTE_KEYS } from '../../protocol/remote-keys.ts'
import { csrfToken } from './common.ts'

const POLL_MS = 1000
/** How long the pointer rests on the preview before the desktop's pointer is moved there (a hover menu). */
const REST_MS = 300

/** The names RemoteInput's `key` accepts, by KeyboardEvent.key (Space is typed as text). */
const NAMED_KEYS = new Set<string>(REMOTE_KEYS.filter((k) => k !== 'Space'))
/** RemoteInput's limit on one `type`. */
const MAX_TEXT = 2000

type RemoteInput =
  | { kind: 'click'; x: number; y: number }
  | { kind: 'type'; text: string }
  | { kind: 'key'; key: string }
  | { kind: 'scroll'; x: number; y: number; deltaY: number }
  | { kind: 'hover'; x: number; y: number }

interface Current {
  recording: null | { id: string; by: string; mine: boolean; actions: number; recent: string[] }
}

export function startDemonstrate(): void {
  const card = document.querySelector<HTMLElement>('[data-demonstrate]')
  const buildId = card?.dataset.demonstrate
  if (!card || !buildId) return
  const shown = card.dataset.recordingId ?? ''
  let polling = true
  let asking: Promise<void> = Promise.resolve()
  const poll = () => {
    asking = ask()
  }
  const ask = async () => {
    if (!polling) return
    try {
      const res = await fetch(`/_/builds/${encodeURIComponent(buildId)}/recordings/current`, {
        headers: { accept: 'application/json' },
      })
      if (res.ok) {
        const now = (await res.json()) as Current
        if (!polling) return
        if ((now.recording?.id ?? '') !== shown) {
          polling = false
          window.location.reload()
          return
        }
        if (now.recording) showActions(card, now.recording.actions, now.recording.recent)
      }
    } catch {
      // The server restarting or the link down: the next poll tries again.
    }
    if (polling) setTimeout(poll, POLL_MS)
  }
  setTimeout(poll, POLL_MS)

  const surface = card.querySelector<HTMLElement>('[data-remote-input]')
  const remote = surface ? remoteInput(surface) : undefined
  // Done and Cancel: the inputs already made go first, and a status request still out ends
  // before the stop (the agent stops recording as the stop begins), so no reload races the answer.
  let submitting = false
  card.addEventListener('submit', (event) => {
    event.preventDefault()
    if (submitting) return // a second press while the first is on its way
    submitting = true
    polling = false
    const form = event.target as HTMLFormElement
    void Promise.all([asking, remote?.drained()]).then(() => form.submit())
  })
}

/** "3 actions recorded" and the newest few, as text (never markup). */
function showActions(card: HTMLElement, count: number, recent: string[]): void {
  const counter = card.querySelector('[data-recording-count]')
  if (counter) counter.textContent = `${count} ${count === 1 ? 'action' : 'actions'} recorded`
  const list = card.querySelector('[data-recording-recent]')
  if (!list) return
  const now = Array.from(list.children, (li) => li.textContent ?? '')
  if (now.length === recent.length && now.every((text, i) => text === recent[i])) return
  list.replaceChildren(
    ...recent.map((text) => {
      const li = document.createElement('li')
      li.textContent = text
      return li
    }),
  )
}

/** The interactive preview: sends the person's clicks, keys and scrolls, in order, one at a time. */
function remoteInput(surface: HTMLElement) {
  const url = surface.dataset.remoteInput ?? ''
  const status = surface.parentElement?.querySelector<HTMLElement>('[data-remote-status]')
  const queue: RemoteInput[] = []
  let sending: Promise<void> | null = null
  let waiters: (() => void)[] = []

  const say = (text: string) => {
    if (status) status.textContent = text
  }

  const send = async (input: RemoteInput) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-csrf-token': csrfToken(),
      },
      body: JSON.stringify(input),
    })
    if (res.ok) return say('')
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null
    // The recording ended (stopped elsewhere, the build moved on): the page shows what is now.
    if (res.status === 409 || res.status === 404) window.location.reload()
    say(body?.error?.message ?? `The desktop did not take that (${res.status})`)
  }

  const pump = () => {
    if (sending) return
    const next = queue.shift()
    if (!next) {
      for (const resolve of waiters) resolve()
      waiters = []
      return
    }
    sending = send(next)
      .catch(() => say('The server could not be reached; that input was not sent'))
      .finally(() => {
        sending = null
        pump()
      })
  }

  const push = (input: RemoteInput) => {
    // Keys typed while a request is out go as one piece of text, in the order typed.
    const last = queue.at(-1)
    if (input.kind === 'type' && last?.kind === 'type' && last.text.length + input.text.length <= MAX_TEXT)
      last.text += input.text
    else if (input.kind === 'scroll' && last?.kind === 'scroll') last.deltaY += input.deltaY
    else if (input.kind === 'hover' && last?.kind === 'hover') Object.assign(last, input)
    else queue.push(input)
    pump()
  }

  // The window's size in pixels is the frames' own size. While the next frame loads the picture
  // has none to tell (naturalWidth is 0): the last loaded frame's size stands.
  const img = surface.querySelector('img')
  const size = { width: 0, height: 0 }
  const measure = () => {
    if (img?.naturalWidth) Object.assign(size, { width: img.naturalWidth, height: img.naturalHeight })
  }
  img?.addEventListener('load', measure)
  measure()

  /** Where on the window a point of the shown picture is: its own pixels, scaled from the displayed size. */
  const windowPoint = (event: MouseEvent | WheelEvent): { x: number; y: number } | null => {
    measure()
    if (!img || img.hidden || !size.width || !img.clientWidth || !img.clientHeight) return null
    const box = img.getBoundingClientRect()
    const x = ((event.clientX - box.left - img.clientLeft) * size.width) / img.clientWidth
    const y = ((event.clientY - box.top - img.clientTop) * size.height) / img.clientHeight
    if (x < 0 || y < 0 || x > size.width || y > size.height) return null
    return { x: Math.round(x), y: Math.round(y) }
  }

  surface.addEventListener('click', (event) => {
    clearTimeout(resting)
    surface.focus()
    const point = windowPoint(event)
    if (point) push({ kind: 'click', ...point })
  })
  // Where the pointer rests on the picture, the desktop's pointer rests too (a menu shown on
  // hover opens); a pointer passing over is not sent.
  let resting: ReturnType<typeof setTimeout> | undefined
  surface.addEventListener('mousemove', (event) => {
    clearTimeout(resting)
    const point = windowPoint(event)
    if (point) resting = setTimeout(() => push({ kind: 'hover', ...point }), REST_MS)
  })
  surface.addEventListener('mouseleave', () => clearTimeout(resting))
  surface.addEventListener(
    'wheel',
    (event) => {
      const point = windowPoint(event)
      if (!point) return
      event.preventDefault()
      push({ kind: 'scroll', ...point, deltaY: Math.round(event.deltaY) })
    },
    { passive: false },
  )
  surface.addEventListener('keydown', (event) => {
    // Shortcuts stay the browser's; Shift+Tab leaves the preview (no keyboard trap).
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return
    if (event.key === 'Tab' && event.shiftKey) return
    if (NAMED_KEYS.has(event.key)) push({ kind: 'key', key: event.key })
    else if ([...event.key].length === 1) push({ kind: 'type', text: event.key })
    else return
    event.preventDefault()
  })
  // Text pasted into the preview is typed on the desktop.
  surface.addEventListener('paste', (event) => {
    const text = event.clipboardData?.getData('text/plain') ?? ''
    event.preventDefault()
    for (let i = 0; i < text.length; i += MAX_TEXT) push({ kind: 'type', text: text.slice(i, i + MAX_TEXT) })
  })

  return {
    drained: () =>
      new Promise<void>((resolve) => {
        if (!sending && queue.length === 0) resolve()
        else waiters.push(resolve)
      }),
  }
}
