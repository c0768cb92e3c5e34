// Maps Chromium's accessibility tree onto the shared element model. Chromium's tree is noisy
// (layout divs, text runs, inner editors); the model keeps what a user perceives, so selectors
// and ancestry paths stay short and survive markup changes that do not change the UI.
import type { Protocol } from 'devtools-protocol'
import { collapse } from '../../../automation/text-match.ts'
import type { UiElement, UiRole, UiState } from '../../../protocol/elements.ts'
import { ROLE_MAP, statesOf } from './ax-roles.ts'
import type { DomFacts } from './dom-facts.ts'

type AXNode = Protocol.Accessibility.AXNode

/** Roles whose Chromium children are internals (inner editor, value text) rather than content. */
const LEAF_ROLES = new Set<UiRole>(['textbox', 'spinbutton', 'slider', 'progressbar', 'image'])
/** Chromium nodes that carry nothing for a user of the model. */
const DROPPED = new Set(['InlineTextBox', 'ListMarker', 'LineBreak'])
/** Chromium's native <select> popup wrapper: its options belong directly to the combobox. */
const HOISTED = new Set(['MenuListPopup'])
const EDITABLE_ROLES = new Set<UiRole>(['textbox', 'spinbutton', 'combobox'])

/** An element under construction; `raw` keeps a text run's own spacing, so runs join as rendered. */
interface Built {
  element: UiElement
  raw?: string
}

export interface AxMappingContext {
  facts: Map<number, DomFacts>
  ref: (backendNodeId: number) => string
  rootRef: string
  title: string
  /** The trees of inner frames, by the backendNodeId of the <iframe> showing each. */
  frames?: Map<number, AXNode[]>
}

export function mapAxTree(nodes: AXNode[], context: AxMappingContext): UiElement {
  const byId = new Map(nodes.map((node) => [node.nodeId, node]))
  const root = nodes.find((node) => node.parentId === undefined)
  const children = root ? (root.childIds ?? []).flatMap((id) => build(byId.get(id), byId, context)) : []
  const rootFacts =
    root?.backendDOMNodeId === undefined ? undefined : context.facts.get(root.backendDOMNodeId)
  return {
    ref: context.rootRef,
    role: 'window',
    name: context.title,
    bounds: rootFacts?.bounds,
    states: root ? statesOf(root) : [],
    children: children.map((child) => child.element),
  }
}

function build(node: AXNode | undefined, byId: Map<string, AXNode>, context: AxMappingContext): Built[] {
  if (!node) return []
  const chromeRole = String(node.role?.value ?? '')
  if (DROPPED.has(chromeRole)) return []
  const built = (node.childIds ?? []).flatMap((id) => build(byId.get(id), byId, context))
  // An inner frame's content stands where its <iframe> is, as a person sees the page.
  const frame = node.backendDOMNodeId === undefined ? undefined : context.frames?.get(node.backendDOMNodeId)
  if (frame) return [...built, ...frameContent(frame, context)]
  if (node.ignored || HOISTED.has(chromeRole)) return built
  const backendId = node.backendDOMNodeId
  const facts = backendId === undefined ? undefined : context.facts.get(backendId)
  const name = collapse(String(node.name?.value ?? ''))
  const base = {
    ref: backendId === undefined ? '' : context.ref(backendId),
    automationId: facts?.id,
    bounds: facts?.bounds,
  }
  if (chromeRole === 'StaticText') {
    if (!name || !base.ref) return []
    return [
      { element: { ...base, role: 'text', name, states: [], children: [] }, raw: String(node.name?.value) },
    ]
  }
  if (!base.ref) return built
  const states = statesOf(node)
  const description = collapse(String(node.description?.value ?? '')) || undefined
  if (richTextEditor(node) && chromeRole !== 'textbox') {
    // A rich-text editor (contenteditable: a message body, a post's text, a ticket's description)
    // is a text field to a person, whatever role its markup gives it: one field holding its text.
    const value = joinedText(built) ?? collapse(built.flatMap((b) => textsOf(b.element)).join(' '))
    const element: UiElement = { ...base, role: 'textbox', name, value, states, description, children: [] }
    return [{ element: prune(element) }]
  }
  // A text box with a suggestion list (<input list>) takes any text, whatever it suggests: to a
  // person it is a text box, not a drop-down whose options must be picked.
  const role = facts?.suggestsOnly && ROLE_MAP[chromeRole] === 'combobox' ? 'textbox' : ROLE_MAP[chromeRole]
  if (!role) return buildGeneric(base, name, states, description, built)
  const value = valueFor(node, role)
  let children = LEAF_ROLES.has(role) ? [] : built.map((child) => child.element)
  let ownName = name
  const text = LEAF_ROLES.has(role) ? undefined : joinedText(built)
  if (text !== undefined && (!ownName || ownName === text)) {
    // A status or cell that only holds text is read as that text.
    ownName = text
    children = idHandles(built)
  }
  // A native drop-down with no options at all takes nothing: read-only, as a person finds it.
  // (An ARIA combobox shows its options only once opened; it has no native popup.)
  const nativePopup = (node.childIds ?? []).some((id) => HOISTED.has(String(byId.get(id)?.role?.value)))
  if (role === 'combobox' && nativePopup && !children.some((c) => c.role === 'option'))
    states.push('readonly')
  if (role === 'listitem' && backendId !== undefined)
    children = [...children, ...foldedMenu(backendId, built, context)]
  const element: UiElement = { ...base, role, name: ownName, value, states, description, children }
  if (facts && EDITABLE_ROLES.has(role)) {
    element.placeholder = facts.placeholder
    element.inputType = facts.inputType
  }
  if (facts && role === 'link') element.href = facts.href
  return [{ element: prune(element) }]
}

/**
 * A submenu folded away by its style under a menu entry (a list item whose link shows, holding a
 * nested list that shows only while the pointer rests on it): the accessibility tree leaves its
 * links out, but a person knows they are one hover away. They stand as a list under the entry, as
 * in the page; a click on one rests the pointer on the entry first (actions.ts, `revealed`).
 */
function foldedMenu(backendId: number, built: Built[], context: AxMappingContext): UiElement[] {
  const item = context.facts.get(backendId)
  if (!item?.links || !built.some((b) => b.element.role === 'link')) return []
  const shown = new Set<string>()
  const walk = (e: UiElement) => {
    shown.add(e.ref)
    e.children.forEach(walk)
  }
  for (const b of built) walk(b.element)
  const links = item.links.flatMap((id): UiElement[] => {
    const facts = context.facts.get(id)
    const nested = (facts?.listDepth ?? 0) > (item.listDepth ?? 0)
    // Laid out but not shown (a box, no visibility): a branch taken out of the layout altogether
    // (display: none, a navigation tree's collapsed branch) is opened by a click, not a hover.
    if (!facts?.text || !facts.bounds || !nested || shown.has(context.ref(id))) return []
    const link: UiElement = { ref: context.ref(id), role: 'link', name: facts.text, states: [], children: [] }
    if (facts.href) link.href = facts.href
    if (facts.bounds) link.bounds = facts.bounds
    if (facts.id) link.automationId = facts.id
    return [link]
  })
  return links.length
    ? [
        {
          ref: `${context.ref(backendId)}:folded`,
          role: 'list',
          name: '',
          states: ['collapsed'],
          children: links,
        },
      ]
    : []
}

function frameContent(nodes: AXNode[], context: AxMappingContext): Built[] {
  const byId = new Map(nodes.map((node) => [node.nodeId, node]))
  const root = nodes.find((node) => node.parentId === undefined)
  if (!root) return []
  // A frame whose whole document is editable is an editor's body (an HTML mail or description
  // editor in its own frame): the field, not its paragraphs.
  if (richTextEditor(root)) return build({ ...root, role: { type: 'role', value: 'generic' } }, byId, context)
  return (root.childIds ?? []).flatMap((id) => build(byId.get(id), byId, context))
}

function textsOf(element: UiElement): string[] {
  return element.role === 'text' ? [element.name] : element.children.flatMap(textsOf)
}

/** The root of a rich-text editor: editable as rich text and focusable (its paragraphs are not). */
function richTextEditor(node: AXNode): boolean {
  const property = (name: string) => node.properties?.find((p) => p.name === name)?.value.value
  return property('editable') === 'richtext' && property('focusable') === true
}

/** Layout containers: text-only ones become one text element, named/identified ones stay, the rest dissolve. */
function buildGeneric(
  base: { ref: string; automationId?: string; bounds?: UiElement['bounds'] },
  name: string,
  states: UiState[],
  description: string | undefined,
  built: Built[],
): Built[] {
  const text = joinedText(built)
  if (text !== undefined) {
    const children = idHandles(built)
    const element: UiElement = { ...base, role: 'text', name: name || text, states, description, children }
    return [{ element: prune(element) }]
  }
  if (built.length === 0 && !base.automationId) return []
  if (!name && !base.automationId && !description) return built
  const element: UiElement = {
    ...base,
    role: 'generic',
    name,
    states,
    description,
    children: built.map((child) => child.element),
  }
  return [{ element: prune(element) }]
}

/**
 * When text runs merge into their parent's name, runs that carry an id (`<strong id="customer-id">`)
 * stay as children: they are the handle an automation reads a value by.
 */
function idHandles(children: Built[]): UiElement[] {
  return children.flatMap((child) => (child.element.automationId ? [child.element] : child.element.children))
}

/** The text of children that are all text, or undefined when any child is something else. */
function joinedText(children: Built[]): string | undefined {
  if (children.length === 0 || children.some((child) => child.element.role !== 'text')) return undefined
  let joined = ''
  let previous: Built | undefined
  for (const child of children) {
    // Text runs keep their own spacing; text from separate blocks, or runs that layout places
    // apart (flex gaps), get a space between them.
    const text = child.raw ?? ` ${child.element.name} `
    if (previous && !/\s$/.test(joined) && !/^\s/.test(text) && apart(previous, child)) joined += ' '
    joined += text
    previous = child
  }
  return collapse(joined) || undefined
}

function apart(left: Built, right: Built): boolean {
  const a = left.element.bounds
  const b = right.element.bounds
  if (!a || !b) return false
  const sameLine = Math.abs(a.y - b.y) < Math.max(2, a.height / 2)
  return !sameLine || b.x - (a.x + a.width) > 2
}

function valueFor(node: AXNode, role: UiRole): string | undefined {
  const raw = node.value?.value
  if (raw !== undefined && raw !== null && raw !== '') return String(raw)
  return EDITABLE_ROLES.has(role) ? '' : undefined
}

/** Drops optional members that are undefined so snapshots serialise (and compare) cleanly. */
function prune(element: UiElement): UiElement {
  for (const key of [
    'value',
    'automationId',
    'bounds',
    'description',
    'placeholder',
    'inputType',
    'href',
  ] as const) {
    if (element[key] === undefined) delete element[key]
  }
  return element
}

export { collapse }
