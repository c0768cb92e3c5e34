// Input from a remote viewer (the dashboard's live preview, or the API while demonstrating),
// performed in a tab as a person's: mouse events at the point, text into the focused element,
// keys and chords, and for the two controls a person sets without aiming at tiny targets — a
// drop-down's option and a check box — the keyboard or a click on the control itself. Every
// event is a trusted one, so the page and the recorder see what they would see at the PC.
// Points come in screenshot pixels, the space of snapshot bounds (device pixels of the viewport);
// the page and its mouse events count CSS pixels, fewer on a high-density screen.
import { DriverError } from '../../../protocol/driver.ts'
import { type RemoteInput, remoteKeyProblem } from '../../../protocol/recording.ts'
import { CdpProtocolError } from './cdp-connection.ts'
import { pressKeys } from './keyboard.ts'
import type { PageTarget } from './page-target.ts'

export async function performRemoteInput(page: PageTarget, input: RemoteInput): Promise<void> {
  const keyProblem = input.kind === 'key' ? remoteKeyProblem(input.key) : undefined
  if (keyProblem)
    throw new DriverError(
      'UNSUPPORTED_ACTION',
      `Unknown key "${(input as { key: string }).key}": ${keyProblem}`,
    )
  if (page.dialog)
    throw new DriverError('BLOCKED_BY_DIALOG', `A ${page.dialog.type} dialog is open: act on it first`)
  try {
    const css = 'x' in input && input.x !== undefined ? await cssScale(page) : 1
    const x = 'x' in input && input.x !== undefined ? input.x / css : 0
    const y = 'y' in input && input.y !== undefined ? input.y / css : 0
    switch (input.kind) {
      case 'click':
        return await click(page, x, y)
      case 'type': {
        if (input.x !== undefined && input.y !== undefined) await click(page, x, y)
        const focus = await inPage(page, { want: 'focus' })
        if (!focus.ok) throw new DriverError('UNSUPPORTED_ACTION', focus.problem)
        await page.call('Input.insertText', { text: input.text })
        return
      }
      case 'key':
        return await pressKeys(page, input.key)
      case 'scroll':
        await page.call('Input.dispatchMouseEvent', {
          type: 'mouseWheel',
          x,
          y,
          deltaX: 0,
          deltaY: input.deltaY,
        })
        return
      case 'hover':
        await page.call('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y })
        return
      case 'select':
        return await choose(page, x, y, input.option)
      case 'check':
        return await tick(page, x, y, input.checked)
    }
  } catch (error) {
    // Input that opened a native dialog froze the page mid-way: the dialog is its outcome.
    if (!(error instanceof DriverError && error.code === 'BLOCKED_BY_DIALOG' && page.dialog)) throw error
  }
}

/** Screenshot pixels per CSS pixel: the device pixel ratio (1 on most screens). */
async function cssScale(page: PageTarget): Promise<number> {
  const { cssVisualViewport: css, visualViewport: device } = await page.call('Page.getLayoutMetrics')
  return css.clientWidth > 0 && device.clientWidth > 0 ? device.clientWidth / css.clientWidth : 1
}

/** A left click at a point in CSS pixels. */
async function click(page: PageTarget, x: number, y: number): Promise<void> {
  const point = { x, y }
  await page.call('Input.dispatchMouseEvent', { type: 'mouseMoved', ...point })
  await page.call('Input.dispatchMouseEvent', {
    type: 'mousePressed',
    ...point,
    button: 'left',
    clickCount: 1,
  })
  await page.call('Input.dispatchMouseEvent', {
    type: 'mouseReleased',
    ...point,
    button: 'left',
    clickCount: 1,
  })
}

/** The option chosen with the keyboard on the focused drop-down: Home when none is chosen, then arrows. */
async function choose(page: PageTarget, x: number, y: number, option: string): Promise<void> {
  const found = await inPage(page, { want: 'select', x, y, option })
  if (!found.ok) throw new DriverError('UNSUPPORTED_ACTION', found.problem)
  if (found.home) await pressKeys(page, 'Home')
  const steps = found.steps ?? 0
  for (let i = 0; i < Math.abs(steps); i++) await pressKeys(page, steps > 0 ? 'ArrowDown' : 'ArrowUp')
  const now = await inPage(page, { want: 'chosen', option })
  if (now.ok) return
  // The page takes the arrow keys for itself (an editable grid moving between its rows): the
  // option's text is typed, as a person picks in a closed drop-down by typing its first letters.
  for (const ch of found.label ?? option) {
    await page.call('Input.dispatchKeyEvent', { type: 'keyDown', key: ch, text: ch, unmodifiedText: ch })
    await page.call('Input.dispatchKeyEvent', { type: 'keyUp', key: ch })
  }
  const typed = await inPage(page, { want: 'chosen', option })
  if (!typed.ok) throw new DriverError('UNSUPPORTED_ACTION', now.problem)
}

/** A click on the box itself (or the label that stands for a hidden one), unless it is already so. */
async function tick(page: PageTarget, x: number, y: number, checked: boolean | undefined): Promise<void> {
  const found = await inPage(page, { want: 'check', x, y, ...(checked === undefined ? {} : { checked }) })
  if (!found.ok) throw new DriverError('UNSUPPORTED_ACTION', found.problem)
  if (!found.at) return
  await click(page, found.at.x, found.at.y)
  const now = await inPage(page, {
    want: 'checked',
    ...(found.wanted === undefined ? {} : { checked: found.wanted }),
  })
  if (!now.ok) throw new DriverError('UNSUPPORTED_ACTION', now.problem)
}

interface Request {
  want: 'focus' | 'select' | 'chosen' | 'check' | 'checked'
  x?: number
  y?: number
  option?: string
  checked?: boolean
}

interface Answer {
  ok: boolean
  problem: string
  steps?: number
  /** The option's text as shown (typed when the page takes the arrow keys). */
  label?: string
  home?: boolean
  at?: { x: number; y: number }
  wanted?: boolean
}

async function inPage(page: PageTarget, request: Request): Promise<Answer> {
  const expression = `(${remoteTarget.toString()})(${JSON.stringify(request)})`
  const evaluate = (contextId?: number) =>
    page.call('Runtime.evaluate', {
      expression,
      returnByValue: true,
      ...(contextId === undefined ? {} : { contextId }),
    })
  const world = page.worldContextId
  const { result, exceptionDetails } = await evaluate(world).catch((error: unknown) => {
    if (world !== undefined && error instanceof CdpProtocolError) return evaluate()
    throw error
  })
  if (exceptionDetails || typeof result.value !== 'object' || result.value === null)
    throw new DriverError(
      'PROTOCOL_ERROR',
      `Cannot look into the page: ${exceptionDetails?.text ?? 'no answer'}`,
    )
  return result.value as Answer
}

/**
 * Runs in the page (sent as source, so self-contained). Finds what the input is about: the
 * focused element, the drop-down or box at a point (through open shadow roots and same-origin
 * frames, a label standing for its control), and says what to press or where to click.
 */
export function remoteTarget(request: Request): Answer {
  const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
  const fold = (s: string | null | undefined) => norm(s).toLowerCase()
  const scope = globalThis as unknown as { __deskhookRemote?: Element }
  // By tag, not instanceof: an element inside a frame is of that frame's HTMLInputElement, which
  // is not this window's (a form in an iframe would otherwise take no text).
  const isTag = <K extends keyof HTMLElementTagNameMap>(
    el: unknown,
    tag: K,
  ): el is HTMLElementTagNameMap[K] =>
    !!el &&
    (el as Element).localName === tag &&
    (el as Element).namespaceURI === 'http://www.w3.org/1999/xhtml'
  const describe = (el: Element | null): string => {
    if (!el || el === document.body || el === document.documentElement) return 'the page itself'
    const name =
      norm(el.getAttribute('aria-label')) ||
      norm(('labels' in el && (el as HTMLInputElement).labels?.[0]?.textContent) || '') ||
      norm(el.getAttribute('placeholder')) ||
      norm(el.textContent).slice(0, 40)
    return `a ${el.localName}${name ? ` “${name}”` : ''}`
  }
  const no = (problem: string): Answer => ({ ok: false, problem })
  const at = (x: number, y: number): Element | null => {
    let el = document.elementFromPoint(x, y)
    let [dx, dy] = [0, 0]
    for (let depth = 0; el && depth < 8; depth++) {
      const inner = el.shadowRoot?.elementFromPoint(x - dx, y - dy)
      if (inner && inner !== el) {
        el = inner
        continue
      }
      if (!isTag(el, 'iframe')) break
      let doc: Document | null = null
      try {
        doc = el.contentDocument
      } catch {}
      if (!doc) break
      const r = el.getBoundingClientRect()
      dx += r.left + el.clientLeft
      dy += r.top + el.clientTop
      el = doc.elementFromPoint(x - dx, y - dy)
    }
    return el
  }
  const focused = (): Element | null => {
    let el: Element | null = document.activeElement
    for (let depth = 0; el && depth < 8; depth++) {
      const inner: Element | null | undefined =
        el.shadowRoot?.activeElement ??
        (isTag(el, 'iframe')
          ? (() => {
              try {
                return el.contentDocument?.activeElement
              } catch {
                return undefined
              }
            })()
          : undefined)
      if (!inner || inner === el) break
      el = inner
    }
    return el
  }
  const NOT_TEXT = [
    'button',
    'checkbox',
    'radio',
    'submit',
    'reset',
    'image',
    'file',
    'range',
    'color',
    'hidden',
  ]
  const takesText = (el: Element | null) =>
    !!el &&
    ((isTag(el, 'input') && !NOT_TEXT.includes(el.type) && !el.readOnly && !el.disabled) ||
      (isTag(el, 'textarea') && !el.readOnly && !el.disabled) ||
      (el as HTMLElement).isContentEditable === true ||
      ['textbox', 'searchbox', 'combobox', 'spinbutton'].includes(el.getAttribute('role') ?? ''))
  const control = (el: Element | null): Element | null => {
    if (!el) return null
    const label = el.closest('label')
    return label?.control ?? el
  }
  const where = (x?: number, y?: number) => `at (${Math.round(x ?? 0)}, ${Math.round(y ?? 0)})`

  if (request.want === 'focus') {
    const el = focused()
    // A frame of another site has the focus: what is inside cannot be seen from here, so it is
    // trusted to take the text (an editor embedded from elsewhere).
    const sealed =
      isTag(el, 'iframe') &&
      (() => {
        try {
          return el.contentDocument === null
        } catch {
          return true
        }
      })()
    return sealed || takesText(el)
      ? { ok: true, problem: '' }
      : no(
          `Nothing that takes text has focus (${describe(el)} has it): click the field first, or send the spot to click with the text ({"kind": "type", "text", "x", "y"})`,
        )
  }
  if (request.want === 'select' || request.want === 'chosen') {
    const select =
      request.want === 'chosen'
        ? scope.__deskhookRemote
        : control(at(request.x ?? 0, request.y ?? 0))?.closest('select')
    if (!isTag(select, 'select'))
      return no(
        `No drop-down ${where(request.x, request.y)} (${describe(at(request.x ?? 0, request.y ?? 0))} is there): point at a <select> list; a drop-down the app draws itself is clicked open, then its option clicked`,
      )
    const options = Array.from(select.options).filter(
      (o) => !o.disabled && !(isTag(o.parentElement, 'optgroup') && o.parentElement.disabled),
    )
    const wanted = fold(request.option)
    const target =
      options.find((o) => fold(o.label) === wanted || fold(o.text) === wanted) ??
      options.find((o) => fold(o.value) === wanted)
    if (!target)
      return no(
        `The drop-down ${describe(select)} has no option “${norm(request.option)}”; it has ${options
          .slice(0, 20)
          .map((o) => `“${norm(o.label)}”`)
          .join(', ')}${options.length > 20 ? ', …' : ''}`,
      )
    if (request.want === 'chosen')
      return target.selected
        ? { ok: true, problem: '' }
        : no(
            `The drop-down ${describe(select)} did not take “${norm(request.option)}” from the keyboard: the page handles its keys itself. Click the drop-down, then click “${norm(request.option)}” in the list it opens`,
          )
    scope.__deskhookRemote = select
    select.focus()
    const current = options.findIndex((o) => o.selected)
    const to = options.indexOf(target)
    return {
      ok: true,
      problem: '',
      home: current < 0,
      steps: to - Math.max(current, 0),
      label: norm(target.label),
    }
  }
  // A box or radio: the input itself, a label for one, or an element with that role.
  const box = (el: Element | null): Element | null => {
    const own = control(el)
    if (isTag(own, 'input') && (own.type === 'checkbox' || own.type === 'radio')) return own
    return (
      own?.closest(
        'input[type="checkbox"], input[type="radio"], [role="checkbox"], [role="radio"], [role="switch"]',
      ) ?? null
    )
  }
  const isChecked = (el: Element) =>
    isTag(el, 'input') ? el.checked : el.getAttribute('aria-checked') === 'true'
  if (request.want === 'checked') {
    const el = scope.__deskhookRemote
    if (!el) return no('The box is gone from the page')
    return request.checked === undefined || isChecked(el) === request.checked
      ? { ok: true, problem: '' }
      : no(`${describe(el)} did not change when clicked (the page may not let it)`)
  }
  const hit = at(request.x ?? 0, request.y ?? 0)
  const el = box(hit)
  if (!el)
    return no(`No check box, radio or switch ${where(request.x, request.y)} (${describe(hit)} is there)`)
  scope.__deskhookRemote = el
  const now = isChecked(el)
  const wanted = request.checked ?? !now
  if (now === wanted) return { ok: true, problem: '' }
  el.scrollIntoView({ block: 'nearest', inline: 'nearest' })
  // A box styled away (zero size, covered) is set by clicking what stands for it: its label.
  let shown: Element = el
  const rect = el.getBoundingClientRect()
  if (rect.width < 2 || rect.height < 2) {
    const label = isTag(el, 'input') ? el.labels?.[0] : undefined
    if (label) shown = label
  }
  const r = shown.getBoundingClientRect()
  let [x, y] = [r.left + r.width / 2, r.top + r.height / 2]
  try {
    for (let view: Window | null = shown.ownerDocument.defaultView; view?.frameElement; view = view.parent) {
      const frame = view.frameElement
      const box = frame.getBoundingClientRect()
      x += box.left + frame.clientLeft
      y += box.top + frame.clientTop
    }
  } catch {}
  return { ok: true, problem: '', at: { x, y }, wanted }
}
