// Functions that run inside the page (Runtime.callFunctionOn, `this` = the target node). They
// are sent as source text, so each must be self-contained: no imports, no outer variables.

/** `hidden`: nothing, or only what holds the element, is at the point: it is out of sight, not covered. */
export type HitCheck =
  | { status: 'ok' }
  | { status: 'disabled' }
  | { status: 'obscured'; by: string; hidden?: boolean }

/** Would a click at (x, y) reach this element (or its label), and is it enabled? */
export function checkHit(this: Node, x: number, y: number): HitCheck {
  const el = this.nodeType === Node.ELEMENT_NODE ? (this as Element) : this.parentElement
  if (!el) return { status: 'obscured', by: 'nothing (detached)' }
  const control = el.closest('button, input, select, textarea, fieldset, [aria-disabled]')
  if (control && (control.matches(':disabled') || control.getAttribute('aria-disabled') === 'true'))
    return { status: 'disabled' }
  // (x, y) is in the tab's viewport; inside a frame, move it into the frame's own viewport.
  for (let frame = el.ownerDocument.defaultView?.frameElement; frame; ) {
    const box = frame.getBoundingClientRect()
    x -= box.left + frame.clientLeft
    y -= box.top + frame.clientTop
    frame = frame.ownerDocument.defaultView?.frameElement ?? null
  }
  const document = el.ownerDocument
  let hit = document.elementFromPoint(x, y)
  // Look through open shadow roots to the innermost element, as a real click would land there.
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y)
    if (!inner || inner === hit) break
    hit = inner
  }
  if (!hit) return { status: 'obscured', by: 'nothing (outside the viewport)', hidden: true }
  if (el === hit || el.contains(hit)) return { status: 'ok' }
  // Styled checkboxes hide the input and show its label: clicking the label is what users do.
  const labels = 'labels' in el ? Array.from((el as HTMLInputElement).labels ?? []) : []
  if (labels.some((label) => label === hit || label.contains(hit))) return { status: 'ok' }
  // What the point hits holds the element: the element is clipped away inside it (a folded menu);
  // or the element is not shown at all by its style (a submenu shown only on hover).
  const holder = hit.contains(el) || !el.checkVisibility({ visibilityProperty: true })
  const id = hit.id ? `#${hit.id}` : ''
  const cls =
    typeof hit.className === 'string' && hit.className
      ? `.${hit.className.trim().split(/\s+/).join('.')}`
      : ''
  const text = (hit.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)
  return {
    status: 'obscured',
    by: `<${hit.tagName.toLowerCase()}${id}${cls}>${text ? ` "${text}"` : ''}`,
    ...(holder ? { hidden: true } : {}),
  }
}

export type FillPlan =
  | { kind: 'type' }
  | { kind: 'set'; inputType: string }
  | { kind: 'refuse'; reason: string; disabled?: boolean }

/** Focuses and selects the element's content so typing replaces it; says how to enter the value. */
export function prepareFill(this: Node): FillPlan {
  const el = this.nodeType === Node.ELEMENT_NODE ? (this as HTMLElement) : this.parentElement
  if (!el) return { kind: 'refuse', reason: 'it is detached' }
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    const type = el instanceof HTMLInputElement ? el.type : 'textarea'
    const notText = ['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'hidden']
    if (notText.includes(type)) return { kind: 'refuse', reason: `it is an input of type ${type}` }
    if (el.disabled) return { kind: 'refuse', reason: 'it is disabled', disabled: true }
    if (el.readOnly) return { kind: 'refuse', reason: 'it is read-only' }
    el.focus()
    // Date, time, colour and range pickers take typed keys per segment or not at all.
    if (['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(type))
      return { kind: 'set', inputType: type }
    el.select()
    return { kind: 'type' }
  }
  if (el.isContentEditable) {
    el.focus()
    const range = document.createRange()
    range.selectNodeContents(el)
    const selection = window.getSelection()
    selection?.removeAllRanges()
    selection?.addRange(range)
    return { kind: 'type' }
  }
  if (el instanceof HTMLSelectElement) return { kind: 'refuse', reason: 'it is a drop-down (use select)' }
  return { kind: 'refuse', reason: `<${el.tagName.toLowerCase()}> is not editable` }
}

/** Sets a value the way a picker would (native setter, then input and change events). */
export function setValue(this: HTMLInputElement, value: string): string {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
  setter?.call(this, value)
  this.dispatchEvent(new Event('input', { bubbles: true }))
  this.dispatchEvent(new Event('change', { bubbles: true }))
  return this.value
}

export type SelectOutcome =
  | { status: 'ok'; selected: string[] }
  | { status: 'missing'; wanted: string; available: string[] }
  | { status: 'not-native' }
  | { status: 'disabled' }

/**
 * Selects <option>s of a native <select> by value, then by label: exactly first, then without
 * case or accents ("united kingdom" picks "United Kingdom", "Régie" picks "regie").
 */
export function selectNative(this: Node, wanted: string[]): SelectOutcome {
  if (!(this instanceof HTMLSelectElement)) return { status: 'not-native' }
  if (this.disabled) return { status: 'disabled' }
  const options = Array.from(this.options)
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim()
  const fold = (s: string) => norm(s).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
  // "wont_fix" is "Won't_Fix", "in progress" is "In-Progress": letters and digits only.
  const squash = (s: string) => fold(s).replace(/[^\p{L}\p{N}]+/gu, '')
  // Last resort: the one option that has the caller's word as one of its words ("feature" is
  // "Feature_Request", "bug" is "Bug report"); two such options are no answer.
  const words = (s: string) =>
    s
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .map(fold)
  const onlyOptionWithWord = (value: string): HTMLOptionElement | undefined => {
    const word = fold(value)
    if (!/^[\p{L}\p{N}]+$/u.test(word)) return undefined
    const hits = options.filter((o) => words(o.label).includes(word) || words(o.value).includes(word))
    return hits.length === 1 ? hits[0] : undefined
  }
  const picked: HTMLOptionElement[] = []
  for (const value of wanted) {
    const option =
      options.find((o) => o.value === value) ??
      options.find((o) => norm(o.label) === norm(value)) ??
      options.find((o) => fold(o.label) === fold(value)) ??
      options.find((o) => fold(o.value) === fold(value)) ??
      options.find((o) => squash(value) !== '' && squash(o.label) === squash(value)) ??
      options.find((o) => squash(value) !== '' && squash(o.value) === squash(value)) ??
      onlyOptionWithWord(value)
    if (!option) return { status: 'missing', wanted: value, available: options.map((o) => norm(o.label)) }
    picked.push(option)
  }
  this.focus()
  for (const option of options) option.selected = picked.includes(option)
  this.dispatchEvent(new Event('input', { bubbles: true }))
  this.dispatchEvent(new Event('change', { bubbles: true }))
  return { status: 'ok', selected: picked.map((o) => norm(o.label)) }
}

/**
 * The ARIA options of a scripted list box or combobox: inside it, or in the popup it (or its
 * inner input) controls or owns. With `wanted`, the option whose text or data-value is that,
 * compared without case or accents (or null); without, the labels of all visible options.
 */
export function findAriaOption(this: Element, wanted: string | null): Element | string[] | null {
  const fold = (s: string) =>
    s.replace(/\s+/g, ' ').trim().normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
  const scopes: Element[] = [this]
  const owners = [this, ...Array.from(this.querySelectorAll('input, [aria-controls], [aria-owns]'))]
  for (const owner of owners) {
    for (const attr of ['aria-controls', 'aria-owns']) {
      for (const id of (owner.getAttribute(attr) ?? '').split(/\s+/)) {
        const popup = id ? document.getElementById(id) : null
        if (popup && !scopes.includes(popup)) scopes.push(popup)
      }
    }
  }
  // A radio group picks like a list: its radios are its options.
  const selector = '[role="option"], [role="radio"], input[type="radio"]'
  const options = scopes.flatMap((scope) => Array.from(scope.querySelectorAll(selector)))
  const labelOf = (option: Element) => {
    const labels = option instanceof HTMLInputElement ? Array.from(option.labels ?? []) : []
    return option.getAttribute('aria-label') ?? labels[0]?.textContent ?? option.textContent ?? ''
  }
  const visible = options.filter(
    (o) => (o as HTMLElement).offsetParent !== null || o.getClientRects().length > 0,
  )
  if (wanted === null) return visible.map((o) => labelOf(o).replace(/\s+/g, ' ').trim())
  // Only an option a person can see is clicked: one in a closed list waits for the list to open
  // (or for the text a typeahead box filters by).
  for (const option of visible) {
    const value = option.getAttribute('data-value')
    if (fold(labelOf(option)) === fold(wanted) || (value !== null && fold(value) === fold(wanted)))
      return option
  }
  return null
}

/** Whether the node is a native <select> (which takes a value without being clicked). */
export function isNativeSelect(this: Node): boolean {
  return this instanceof HTMLSelectElement
}

/** The text input a combobox types into (itself, or an input inside it), for typeahead lists. */
export function typeaheadInput(this: Element): boolean {
  const typable =
    'input:not([type]), input[type="text"], input[type="search"], textarea, [contenteditable="true"]'
  const input = this.matches(typable) ? this : this.querySelector(typable)
  if (!input) return false
  const el = input as HTMLInputElement
  el.focus()
  if (typeof el.select === 'function') el.select()
  return true
}

/** true/false for checkboxes, radios, switches (native or ARIA); null when the element has no such state. */
export function checkedState(this: Node): boolean | null {
  const el = this.nodeType === Node.ELEMENT_NODE ? (this as Element) : this.parentElement
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.checked
  const aria = el?.getAttribute('aria-checked') ?? el?.getAttribute('aria-pressed')
  if (aria === 'true' || aria === 'mixed') return true
  if (aria === 'false') return false
  return null
}

export interface ReadOutcome {
  text: string
  value?: string
  checked?: boolean
}

/** What a user sees in the element: its text, and the value of a control. */
export function readElement(this: Node): ReadOutcome {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim()
  if (this.nodeType !== Node.ELEMENT_NODE) return { text: norm(this.textContent ?? '') }
  const el = this as HTMLElement
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text (hidden parts left out) is what a user reads
  const text = norm(el.innerText ?? el.textContent ?? '')
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio'))
    return { text, value: el.value, checked: el.checked }
  if (el instanceof HTMLSelectElement) return { text, value: norm(el.selectedOptions[0]?.label ?? '') }
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)
    return { text: el.value, value: el.value }
  return { text }
}

/**
 * Where a person would rest the pointer to reveal a control shown only on hover (a submenu's
 * link inside a menu item): near the start of the nearest ancestor the pointer can land on.
 * Null when no ancestor shows either.
 */
export function revealPoint(this: Node): { x: number; y: number } | null {
  let el: Element | null = this.nodeType === Node.ELEMENT_NODE ? (this as Element) : this.parentElement
  for (el = el?.parentElement ?? null; el; el = el.parentElement) {
    const r = el.getBoundingClientRect()
    if (r.width < 1 || r.height < 1) continue
    // Only a box the pointer can reach: inside the window, and not itself clipped away (the
    // point lands on it or inside it), so hovering there is hovering that menu item.
    const x = r.left + Math.min(r.width / 2, 20)
    const y = r.top + Math.min(r.height / 2, 12)
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue
    const at = document.elementFromPoint(x, y)
    if (at && (at === el || el.contains(at))) return { x, y }
  }
  return null
}

/**
 * Resolves true once a click at the element's centre would land on it (a hover's CSS has taken
 * effect, or a menu script that waits for the pointer to rest has opened it), false after
 * `timeoutMs`. Checked once a frame: a wait for the condition, not a fixed delay.
 */
export function untilHittable(this: Node, timeoutMs: number): Promise<boolean> {
  const el = this.nodeType === Node.ELEMENT_NODE ? (this as Element) : this.parentElement
  const deadline = performance.now() + timeoutMs
  return new Promise((resolve) => {
    const check = () => {
      const r = el?.getBoundingClientRect()
      const hit = r && r.width >= 1 && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
      if (el && hit && (hit === el || el.contains(hit))) return resolve(true)
      if (performance.now() >= deadline) return resolve(false)
      requestAnimationFrame(check)
    }
    requestAnimationFrame(check)
  })
}

/**
 * Before typing into a one-line box that may offer suggestions (it says it autocompletes, or
 * turns the browser's own suggestions off): notes what the page shows now, so what typing made
 * appear can be told apart afterwards. Search boxes and passwords are left alone.
 */
export function noteBeforeTyping(this: Element): boolean {
  const el = this as HTMLInputElement
  if (!(el instanceof HTMLInputElement) || !['text', 'email', 'tel', 'url', ''].includes(el.type))
    return false
  // A box that searches or filters shows matches, not suggestions to pick: its results stay unclicked.
  const says = [el.name, el.id, el.placeholder, el.getAttribute('aria-label') ?? ''].join(' ')
  if (el.name === 'q' || /search|filter|find|query/i.test(says) || el.closest('[role="search"]')) return false
  const hinted = (e: Element | null, depth: number): boolean =>
    !!e &&
    depth >= 0 &&
    (['aria-autocomplete', 'aria-controls', 'aria-owns', 'aria-haspopup'].some((a) => e.hasAttribute(a)) ||
      e.getAttribute('role') === 'combobox' ||
      hinted(e.parentElement, depth - 1))
  const aria = hinted(el, 3)
  if (!aria && (el.getAttribute('autocomplete') ?? '').toLowerCase() !== 'off') return false
  const shown = new WeakSet<Element>()
  for (const e of Array.from(document.body?.querySelectorAll('*') ?? [])) {
    if ((e as HTMLElement).offsetParent !== null) shown.add(e)
  }
  // (In-page functions run alone: the key is spelled out in both, not shared by a constant.)
  const note = { shown, aria }
  ;(document as unknown as Record<symbol, unknown>)[Symbol.for('deskhook.shownBeforeTyping')] = note
  return true
}

/**
 * After typing: the suggestion a person would pick to keep what they typed. It appeared since
 * noteBeforeTyping, sits just under or beside the box, is no link to another page and no field,
 * and its own text holds the typed value ("maria@example.com", "Add maria@example.com…"); the
 * option, list item or clickable element around the smallest such text is it.
 */
export function offeredSuggestion(this: Element, wanted: string): Element | null {
  const key = Symbol.for('deskhook.shownBeforeTyping')
  const note = (
    document as unknown as Record<symbol, { shown: WeakSet<Element>; aria: boolean } | undefined>
  )[key]
  if (!note) return null
  const { shown, aria } = note
  // A box that says nothing of suggestions (only that the browser's own are off) is believed
  // only for a list that floats over the page, as suggestion lists do: what appeared in the flow
  // of the page (a preview, a hint) is not offered to be picked.
  const floats = (e: Element) => {
    for (let at: Element | null = e; at && !shown.has(at); at = at.parentElement) {
      const position = getComputedStyle(at).position
      if (position === 'absolute' || position === 'fixed') return true
    }
    return false
  }
  const fold = (s: string) =>
    s.replace(/\s+/g, ' ').trim().normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
  const want = fold(wanted)
  const box = this.getBoundingClientRect()
  const near = (r: DOMRect) =>
    r.width > 0 &&
    r.height > 0 &&
    r.top >= box.top - 4 &&
    r.top <= box.bottom + 400 &&
    r.left < box.right + 200 &&
    r.right > box.left - 200
  const fresh = Array.from(document.body?.querySelectorAll('*') ?? []).filter(
    (e) =>
      e !== this &&
      !e.contains(this) &&
      !shown.has(e) &&
      (e as HTMLElement).offsetParent !== null &&
      !e.matches('input, textarea, select, [contenteditable="true"]') &&
      !e.closest('table, tr, [role="grid"], [role="table"], [role="row"]') &&
      // biome-ignore lint/performance/useDomNodeTextContent: what a person reads on the suggestion
      fold((e as HTMLElement).innerText ?? '').includes(want) &&
      near(e.getBoundingClientRect()),
  )
  // The innermost element holding the text, then the nearest option-like element around it.
  const inner = fresh.filter((e) => !fresh.some((o) => o !== e && e.contains(o)))
  for (const e of inner) {
    // Only what offers itself to be picked: an option, a list item, or what the pointer shows as clickable.
    const pointer = (x: Element) => getComputedStyle(x).cursor === 'pointer'
    const pick =
      e.closest('[role="option"], [role="menuitem"], li, [data-value], [data-selectable]') ??
      (pointer(e) ? e : null)
    if (!pick || (!aria && !floats(pick))) continue
    const link = pick.closest('a[href]') as HTMLAnchorElement | null
    if (link && !link.getAttribute('href')?.startsWith('#') && link.href !== `${location.href}#`) continue
    return pick
  }
  return null
}

/** The text shown around a box in its own container (the tokens a token box holds), without its value. */
export function tokensBeside(this: Element): string {
  // biome-ignore lint/performance/useDomNodeTextContent: the tokens a person sees
  return ((this.parentElement as HTMLElement | null)?.innerText ?? '').replace(/\s+/g, ' ').trim()
}
