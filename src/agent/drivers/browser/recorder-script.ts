// The in-page half of "show me" recording. It runs in an isolated world of every document (the
// page's own scripts cannot see or fake it), listens in the capture phase and reports each thing
// a person does through a CDP binding, keeping the element so the agent can look it up in the
// accessibility tree. Sent as source text: self-contained, no imports, no outer variables.

/** What the page sends over the binding (JSON); the agent turns it into an InputEvent. */
export interface PageInputEvent {
  seq: number
  kind: 'click' | 'input' | 'select' | 'check' | 'key'
  value?: string
  secret?: boolean
  /** A secret field's form name: its value is cut from navigation URLs (a GET form puts it there). */
  secretField?: string
  key?: string
  /** The page's own guess at the target, used when the agent cannot resolve the element any more. */
  target?: {
    role: string
    name: string
    point?: { x: number; y: number }
    automationId?: string
    inputType?: string
    placeholder?: string
  }
}

/**
 * Installs the recorder in this document (once). Secret fields (passwords, one-time codes, card
 * numbers) are reported with `secret: true` and never with their value: it does not cross the binding.
 */
export function installRecorder(binding: string, roleMap: Record<string, string>, keyNames: string[]): void {
  const scope = globalThis as unknown as Record<string, unknown>
  if (scope.__deskhookRecorder) return
  const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
  const SECRET_AUTOCOMPLETE = /\b(current-password|new-password|one-time-code|cc-number|cc-csc)\b/i
  // A password field a "show password" button turned into text stays secret.
  const secrets = new WeakSet<Element>()
  const isSecret = (el: Element) => {
    if (
      el instanceof HTMLInputElement &&
      (el.type === 'password' || SECRET_AUTOCOMPLETE.test(el.getAttribute('autocomplete') ?? ''))
    )
      secrets.add(el)
    return secrets.has(el)
  }
  const ACTIONABLE = [
    'a[href]',
    'button',
    'input',
    'select',
    'textarea',
    'summary',
    'option',
    'label',
    '[onclick]',
    '[contenteditable]:not([contenteditable="false"])',
    ...[
      'button',
      'link',
      'tab',
      'menuitem',
      'menuitemcheckbox',
      'menuitemradio',
      'option',
      'checkbox',
      'radio',
      'switch',
      'treeitem',
      'combobox',
      'gridcell',
      'row',
      'listitem',
    ].map((role) => `[role="${role}"]`),
  ].join(', ')
  const NOT_TEXT = new Set(['select', 'textarea', 'option', 'script', 'style', 'noscript'])

  /** Rendered text and images' alt text, leaving out form controls' contents (a label's, not its select's). */
  const textOf = (el: Element): string => {
    let text = ''
    const walk = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? ''
      else if (node.nodeType === Node.ELEMENT_NODE && !NOT_TEXT.has((node as Element).localName)) {
        const style = node instanceof HTMLElement ? getComputedStyle(node) : undefined
        if (style?.display === 'none' || style?.visibility === 'hidden') return
        if (style && style.display !== 'inline') text += ' '
        if (node instanceof HTMLImageElement) text += ` ${node.alt} `
        for (const child of Array.from(node.childNodes)) walk(child)
      }
    }
    walk(el)
    return norm(text)
  }
  const roleOf = (el: Element): string => {
    const explicit = norm(el.getAttribute('role')).split(' ')[0] ?? ''
    if (roleMap[explicit]) return roleMap[explicit]!
    const tag = el.localName
    if (tag === 'a' && el.hasAttribute('href')) return 'link'
    if (tag === 'button') return 'button'
    if (el instanceof HTMLInputElement) {
      const byType: Record<string, string> = {
        button: 'button',
        submit: 'button',
        reset: 'button',
        image: 'button',
        checkbox: 'checkbox',
        radio: 'radio',
        range: 'slider',
        number: 'spinbutton',
      }
      return byType[el.type] ?? (el.list ? 'combobox' : 'textbox')
    }
    if (el instanceof HTMLTextAreaElement) return 'textbox'
    if (el instanceof HTMLSelectElement) return el.multiple || el.size > 1 ? 'listbox' : 'combobox'
    if (el instanceof HTMLOptionElement) return 'option'
    if (/^h[1-6]$/.test(tag)) return 'heading'
    if (tag === 'img') return 'image'
    if (el instanceof HTMLElement && el.isContentEditable) return 'textbox'
    return textOf(el) ? 'text' : 'generic'
  }
  const nameOf = (el: Element): string => {
    const labelledBy = norm(el.getAttribute('aria-labelledby'))
    if (labelledBy) {
      const parts = labelledBy.split(' ').map((id) => document.getElementById(id))
      const name = norm(parts.map((part) => (part ? textOf(part) : '')).join(' '))
      if (name) return name
    }
    const aria = norm(el.getAttribute('aria-label'))
    if (aria) return aria
    const labels = 'labels' in el ? Array.from((el as HTMLInputElement).labels ?? []) : []
    const labelled = norm(labels.map(textOf).join(' '))
    if (labelled) return labelled
    if (el instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(el.type))
      return norm(el.value) || (el.type === 'submit' ? 'Submit' : el.type === 'reset' ? 'Reset' : '')
    const alt = norm(el.getAttribute('alt'))
    if (alt && (el instanceof HTMLImageElement || el instanceof HTMLInputElement)) return alt
    const field =
      el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement
    if (!field && !(el instanceof HTMLElement && el.isContentEditable)) {
      const text = textOf(el)
      if (text) return text.slice(0, 300)
    }
    return norm(el.getAttribute('title')) || norm(el.getAttribute('placeholder'))
  }
  /**
   * Centre of the element in the top viewport's device pixels (same-origin frames add their offset);
   * none for an element without a box or inside a cross-origin frame.
   */
  const pointOf = (el: Element) => {
    const rect = el.getBoundingClientRect()
    if (rect.width === 0 && rect.height === 0) return undefined
    let x = rect.left + rect.width / 2
    let y = rect.top + rect.height / 2
    try {
      for (let view: Window = window; view.frameElement; view = view.parent) {
        const frame = view.frameElement
        const box = frame.getBoundingClientRect()
        x += box.left + frame.clientLeft
        y += box.top + frame.clientTop
      }
    } catch {
      return undefined
    }
    // Snapshot bounds and screenshots count device pixels: so does the point.
    const scale = window.devicePixelRatio || 1
    return { x: Math.round(x * scale), y: Math.round(y * scale) }
  }
  const describe = (el: Element): NonNullable<PageInputEvent['target']> => {
    const target: NonNullable<PageInputEvent['target']> = { role: roleOf(el), name: nameOf(el) }
    const point = pointOf(el)
    if (point) target.point = point
    if (el.id) target.automationId = el.id
    if (el instanceof HTMLInputElement) target.inputType = (el.getAttribute('type') || 'text').toLowerCase()
    const placeholder = norm(el.getAttribute('placeholder'))
    if (placeholder) target.placeholder = placeholder
    return target
  }

  let seq = 0
  /** The elements of recent events, until the agent takes them (or they age out). */
  const kept = new Map<number, Element>()
  const report = (event: Omit<PageInputEvent, 'seq' | 'target'>, el?: Element | null) => {
    const send = scope[binding] as ((payload: string) => void) | undefined
    if (!send) return
    const payload: PageInputEvent = { seq: ++seq, ...event }
    if (el) {
      payload.target = describe(el)
      if (isSecret(el)) {
        payload.secret = true
        const field = el.getAttribute('name')
        if (field) payload.secretField = field
      }
      kept.set(payload.seq, el)
      for (const old of kept.keys()) {
        if (kept.size <= 100) break
        kept.delete(old)
      }
    }
    send(JSON.stringify(payload))
  }
  const origin = (event: Event) => (event.composedPath()[0] ?? event.target) as Element | null
  const isToggle = (el: Element) =>
    el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')
  /** Where a change shows: the editing host of rich text, the field itself otherwise. */
  const editingHost = (el: Element): HTMLElement | null => {
    if (!(el instanceof HTMLElement) || !el.isContentEditable) return null
    let host = el
    while (host.parentElement?.isContentEditable) host = host.parentElement
    return host
  }
  // A label's click is followed by the browser's own click on its control: report one of them.
  let labelControl: Element | null = null
  // Enter on a field or button makes the browser click (the form's submit button, the button):
  // the Enter is reported, its click would be a second action.
  let enterDown = false

  const onClick = (event: Event) => {
    const hit = origin(event)
    if (!event.isTrusted || !(hit instanceof Element)) return
    if (enterDown && (event as MouseEvent).detail === 0) return
    let el = hit.closest(ACTIONABLE) ?? hit
    if (el === labelControl) return
    if (el instanceof HTMLLabelElement && el.control) {
      el = el.control
      labelControl = el
      setTimeout(() => {
        labelControl = null
      })
    }
    // Check boxes, radios and drop-downs report what was chosen (check, select), not the click.
    if (isToggle(el) || el instanceof HTMLSelectElement || el.closest('select')) return
    report({ kind: 'click' }, el)
  }
  // A drop-down whose page cancels its press draws its own list of options instead of the
  // browser's (so a person picks from that list): the press is reported as a click, which the
  // builder pairs with the pick that follows (docs/builder.md, "Forms as people use them").
  const onPress = (event: Event) => {
    const el = origin(event)?.closest?.('select')
    if (!event.isTrusted || !el) return
    setTimeout(() => {
      if (event.defaultPrevented) report({ kind: 'click' }, el)
    }, 0)
  }
  const onInput = (event: Event) => {
    const el = origin(event)
    if (!event.isTrusted || !(el instanceof Element)) return
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      if (isToggle(el)) return
      if (isSecret(el)) report({ kind: 'input' }, el)
      else report({ kind: 'input', value: el.value }, el)
      return
    }
    const host = editingHost(el)
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (line breaks of blocks) is the value
    if (host) report({ kind: 'input', value: host.innerText.replace(/\n$/, '') }, host)
  }
  const onChange = (event: Event) => {
    const el = origin(event)
    if (!event.isTrusted) return
    if (el instanceof HTMLSelectElement) {
      const value = Array.from(el.selectedOptions, (option) => norm(option.label)).join(', ')
      report({ kind: 'select', value }, el)
    } else if (el instanceof HTMLInputElement && isToggle(el)) {
      report({ kind: 'check', value: String(el.checked) }, el)
    }
  }
  const onKeyUp = (event: Event) => {
    if ((event as KeyboardEvent).key === 'Enter') enterDown = false
  }
  const onKey = (event: Event) => {
    const key = event as KeyboardEvent
    if (key.isTrusted && key.key === 'Enter') enterDown = true
    if (!key.isTrusted || key.isComposing || !keyNames.includes(key.key)) return
    const modifiers = [
      key.ctrlKey && 'Control',
      key.altKey && 'Alt',
      key.metaKey && 'Meta',
      key.shiftKey && 'Shift',
    ]
    const chord = [...modifiers.filter(Boolean), key.key].join('+')
    const el = origin(event)
    const focused = el instanceof Element && el !== document.body && el !== document.documentElement
    report({ kind: 'key', key: chord }, focused ? (editingHost(el) ?? el) : null)
  }
  const listeners: [string, (event: Event) => void][] = [
    ['click', onClick],
    ['mousedown', onPress],
    ['input', onInput],
    ['change', onChange],
    ['keydown', onKey],
    ['keyup', onKeyUp],
  ]
  for (const [type, listener] of listeners) window.addEventListener(type, listener, true)
  scope.__deskhookRecorder = {
    /** The element of event `n`, handed over once. */
    take(n: number): Element | undefined {
      const el = kept.get(n)
      kept.delete(n)
      return el
    },
    stop(): void {
      for (const [type, listener] of listeners) window.removeEventListener(type, listener, true)
      kept.clear()
      delete scope.__deskhookRecorder
    },
  }
}
