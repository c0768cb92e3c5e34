/**
 * Live desktop previews: `<div data-preview="<desktopId>">` with an `<img hidden>` and a
 * `[data-preview-status]` line. The server announces each new frame's number over SSE; the image
 * asks for the next frame only once the previous one has loaded, so a slow link skips frames
 * instead of queueing them.
 */
export function startPreview(): void {
  document.querySelectorAll<HTMLElement>('[data-preview]').forEach(watch)
}

function watch(box: HTMLElement): void {
  const id = box.dataset.preview
  const img = box.querySelector('img')
  const status = box.querySelector<HTMLElement>('[data-preview-status]')
  if (!id || !img) return
  const base = `/_/desktops/${encodeURIComponent(id)}`
  let loading = false
  let wanted: string | undefined
  let shown: string | undefined

  const say = (text: string | null) => {
    if (!status) return
    status.hidden = text === null
    if (text !== null) status.textContent = text
  }
  const next = () => {
    if (loading || wanted === undefined || wanted === shown) return
    loading = true
    shown = wanted
    img.src = `${base}/preview.jpg?n=${encodeURIComponent(wanted)}`
  }
  img.addEventListener('load', () => {
    loading = false
    img.hidden = false
    say(null)
    next()
  })
  img.addEventListener('error', () => {
    loading = false
    next()
  })

  const events = new EventSource(`${base}/preview/events`)
  events.addEventListener('message', (event) => {
    wanted = (event as MessageEvent<string>).data
    next()
  })
  events.addEventListener('offline', () => {
    img.hidden = true
    say('Offline — no preview')
  })
  events.addEventListener('online', () => say(img.hidden ? 'Waiting for the first frame…' : null))
  // Leaving the page ends the stream at once, so the agent stops capturing for this watcher.
  window.addEventListener('pagehide', () => events.close())
}
