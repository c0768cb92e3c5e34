// The run page's replay (`[data-replay]`): the timeline's steps are links (`?step=n`, so the page
// works without script); here they select a step in place, the ← and → keys move through the
// steps, and the acted-on element is outlined over the step's screenshot at the size it is shown.

/** Set once the first step's screenshot is shown with its outline (read by the load-time test). */
export const REPLAY_READY_MARK = 'deskhook:replay-ready'

export function startReplay(): void {
  const root = document.querySelector<HTMLElement>('[data-replay]')
  if (root) new Replay(root)
}

class Replay {
  private readonly links: HTMLAnchorElement[]
  private readonly panels = new Map<number, HTMLElement>()
  private readonly order: number[]
  private current: number
  private watching?: ResizeObserver

  constructor(private readonly root: HTMLElement) {
    this.links = Array.from(root.querySelectorAll<HTMLAnchorElement>('.timeline a[data-step]'))
    root.querySelectorAll<HTMLElement>('[data-step-panel]').forEach((panel) => {
      this.panels.set(Number(panel.dataset.stepPanel), panel)
    })
    this.order = this.links.map((l) => Number(l.dataset.step))
    const marked = this.links.find((l) => l.getAttribute('aria-current') === 'step')
    this.current = Number(marked?.dataset.step ?? this.order[0])
    document.addEventListener('click', (event) => this.onClick(event))
    document.addEventListener('keydown', (event) => this.onKey(event))
    this.show(true)
  }

  private onClick(event: MouseEvent): void {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-step]')
    const n = Number(link?.dataset.step)
    if (!link || !this.panels.has(n)) return
    event.preventDefault()
    this.select(n)
    // A link outside the timeline (the error's "at step") hands the reader over to the replay.
    if (!this.links.includes(link)) this.root.scrollIntoView({ block: 'start' })
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
    // Arrow keys keep their meaning where they edit or pick something.
    if ((event.target as Element | null)?.closest?.('input, textarea, select, [contenteditable]')) return
    const i = this.order.indexOf(this.current) + (event.key === 'ArrowRight' ? 1 : -1)
    const n = this.order[i]
    if (n === undefined) return
    event.preventDefault()
    // Focus follows when it was on a step already (reading the timeline with the keyboard).
    this.select(n, this.links.includes(document.activeElement as HTMLAnchorElement))
  }

  private select(n: number, focus = false): void {
    if (n === this.current) return
    this.current = n
    this.show(false)
    const link = this.links.find((l) => Number(l.dataset.step) === n)
    if (focus) link?.focus()
    link?.scrollIntoView({ block: 'nearest' })
    history.replaceState(history.state, '', `${location.pathname}?step=${n}`)
  }

  private show(first: boolean): void {
    for (const link of this.links) {
      if (Number(link.dataset.step) === this.current) link.setAttribute('aria-current', 'step')
      else link.removeAttribute('aria-current')
    }
    for (const [n, panel] of this.panels) panel.hidden = n !== this.current
    const panel = this.panels.get(this.current)
    const img = panel?.querySelector<HTMLImageElement>('.shot img')
    this.watching?.disconnect()
    this.watching = undefined
    if (!img) {
      if (first) performance.mark(REPLAY_READY_MARK)
      this.preloadAround()
      return
    }
    img.loading = 'eager'
    const outline = panel?.querySelector<HTMLElement>('.outline') ?? null
    const place = () => placeOutline(img, outline)
    const shown = () => {
      place()
      if (first && !performance.getEntriesByName(REPLAY_READY_MARK).length)
        performance.mark(REPLAY_READY_MARK)
      // Only now: the neighbours must not compete with the picture asked for.
      this.preloadAround()
    }
    if (img.complete) shown()
    else {
      img.addEventListener('load', shown, { once: true })
      // A picture that is gone (removed by retention) shows its alt text, without an outline.
      img.addEventListener('error', shown, { once: true })
    }
    // The picture is shown at the width the layout gives it: follow it (window resized, phone turned).
    this.watching = new ResizeObserver(place)
    this.watching.observe(img)
  }

  /** The neighbours' screenshots start loading now, so stepping through shows them at once. */
  private preloadAround(): void {
    const i = this.order.indexOf(this.current)
    for (const n of [this.order[i + 1], this.order[i - 1]]) {
      const img = n === undefined ? null : this.panels.get(n)?.querySelector<HTMLImageElement>('.shot img')
      if (img) img.loading = 'eager'
    }
  }
}

/**
 * Puts the outline over the element: its bounds are in the screenshot's own pixels, the picture is
 * shown scaled, so they are scaled by the same factor and clipped to the picture. Positions come
 * from data attributes through the CSSOM (the CSP allows no style attributes).
 */
function placeOutline(img: HTMLImageElement, outline: HTMLElement | null): void {
  if (!outline) return
  if (!img.naturalWidth || !img.clientWidth) {
    outline.hidden = true
    return
  }
  const sx = img.clientWidth / img.naturalWidth
  const sy = img.clientHeight / img.naturalHeight
  const x = Number(outline.dataset.x)
  const y = Number(outline.dataset.y)
  const left = Math.max(0, x * sx)
  const top = Math.max(0, y * sy)
  const right = Math.min(img.clientWidth, (x + Number(outline.dataset.width)) * sx)
  const bottom = Math.min(img.clientHeight, (y + Number(outline.dataset.height)) * sy)
  if (!(right > left && bottom > top)) {
    outline.hidden = true
    return
  }
  // The outline's border is drawn around the element, not over it.
  const pad = Number.parseFloat(getComputedStyle(outline).borderLeftWidth) || 0
  outline.style.left = `${img.offsetLeft + img.clientLeft + left - pad}px`
  outline.style.top = `${img.offsetTop + img.clientTop + top - pad}px`
  outline.style.width = `${right - left + 2 * pad}px`
  outline.style.height = `${bottom - top + 2 * pad}px`
  outline.hidden = false
}
