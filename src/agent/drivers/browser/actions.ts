// Element actions performed the way a user would: scroll into view, check that the element is
// enabled and actually under the pointer, then real mouse/keyboard input through `Input.*`.
import { DriverError } from '../../../protocol/driver.ts'
import type { ActionResult, ElementAction } from '../../../protocol/elements.ts'
import { CdpProtocolError } from './cdp-connection.ts'
import { pressKeys } from './keyboard.ts'
import { callOnNode, findOption, findSuggestion, listOptions } from './node-calls.ts'
import * as inPage from './page-functions.ts'
import type { PageTarget } from './page-target.ts'
import { settle } from './waiting.ts'

/** Scrolls the node into view and returns the centre of its first visible box, in viewport pixels. */
async function clickPoint(page: PageTarget, backendNodeId: number): Promise<{ x: number; y: number }> {
  try {
    await page.call('DOM.scrollIntoViewIfNeeded', { backendNodeId })
    const { quads } = await page.call('DOM.getContentQuads', { backendNodeId })
    for (const quad of quads) {
      const xs = [quad[0]!, quad[2]!, quad[4]!, quad[6]!]
      const ys = [quad[1]!, quad[3]!, quad[5]!, quad[7]!]
      const width = Math.max(...xs) - Math.min(...xs)
      const height = Math.max(...ys) - Math.min(...ys)
      if (width >= 1 && height >= 1)
        return { x: xs.reduce((a, b) => a + b) / 4, y: ys.reduce((a, b) => a + b) / 4 }
    }
  } catch (error) {
    if (!(error instanceof CdpProtocolError)) throw error
  }
  throw new DriverError('ELEMENT_OBSCURED', 'The element has no visible box (hidden or zero-sized)')
}

/** How long a menu may take to open once the pointer rests on its item (scripts wait for it to rest). */
const REVEAL_MS = 1_500

/**
 * The click point of a node, revealing it first when it shows only on hover: the pointer rests
 * on its nearest visible ancestor (the menu item it belongs to), as a person's would.
 */
async function revealed(page: PageTarget, backendNodeId: number): Promise<{ x: number; y: number }> {
  try {
    return await clickPoint(page, backendNodeId)
  } catch (error) {
    if (!(error instanceof DriverError) || error.code !== 'ELEMENT_OBSCURED') throw error
    const rest = await callOnNode(page, backendNodeId, inPage.revealPoint)
    if (!rest) throw error
    await page.call('Input.dispatchMouseEvent', { type: 'mouseMoved', ...rest })
    await callOnNode(page, backendNodeId, inPage.untilHittable, REVEAL_MS)
    return clickPoint(page, backendNodeId)
  }
}

export async function clickNode(
  page: PageTarget,
  backendNodeId: number,
  options: { button?: 'left' | 'right'; clickCount?: number } = {},
): Promise<void> {
  let point = await revealed(page, backendNodeId)
  let hit = await callOnNode(page, backendNodeId, inPage.checkHit, point.x, point.y)
  // A menu's flyout parked outside the window, or folded away inside its menu, until its item is
  // hovered: rest the pointer on the item it belongs to, as a person does.
  if (hit.status === 'obscured' && hit.hidden) {
    const rest = await callOnNode(page, backendNodeId, inPage.revealPoint)
    if (rest) {
      await page.call('Input.dispatchMouseEvent', { type: 'mouseMoved', ...rest })
      await callOnNode(page, backendNodeId, inPage.untilHittable, REVEAL_MS)
      point = await clickPoint(page, backendNodeId)
      hit = await callOnNode(page, backendNodeId, inPage.checkHit, point.x, point.y)
    }
  }
  if (hit.status === 'disabled') throw new DriverError('ELEMENT_DISABLED', 'The element is disabled')
  if (hit.status === 'obscured')
    throw new DriverError('ELEMENT_OBSCURED', `The click would land on ${hit.by}`)
  const button = options.button ?? 'left'
  // If the click opens a native dialog, the renderer freezes before acknowledging the release;
  // page.call then throws BLOCKED_BY_DIALOG, which the driver reads as "the action opened a dialog".
  await page.call('Input.dispatchMouseEvent', { type: 'mouseMoved', ...point })
  for (let count = 1; count <= (options.clickCount ?? 1); count++) {
    await page.call('Input.dispatchMouseEvent', { type: 'mousePressed', ...point, button, clickCount: count })
    await page.call('Input.dispatchMouseEvent', {
      type: 'mouseReleased',
      ...point,
      button,
      clickCount: count,
    })
  }
}

export async function fillNode(
  page: PageTarget,
  backendNodeId: number,
  value: string,
): Promise<ActionResult> {
  await clickPoint(page, backendNodeId)
  const plan = await callOnNode(page, backendNodeId, inPage.prepareFill)
  if (plan.kind === 'refuse') {
    throw new DriverError(
      plan.disabled ? 'ELEMENT_DISABLED' : 'UNSUPPORTED_ACTION',
      `Cannot fill: ${plan.reason}`,
    )
  }
  if (plan.kind === 'set') {
    // Set the value the way the browser's own picker does (typing is locale-dependent), in the
    // one format every locale shares: ISO.
    const iso = pickerValue(plan.inputType, value)
    const set = await callOnNode(page, backendNodeId, inPage.setValue, iso)
    if (iso !== '' && set === '')
      throw new DriverError(
        'UNSUPPORTED_ACTION',
        `The ${plan.inputType} field refused "${value}" (no such ${plan.inputType})`,
      )
    return { value: set }
  }
  // Typing replaces the selection prepareFill made; an empty value deletes it instead.
  if (value === '') await pressKeys(page, 'Delete')
  else {
    const offers = await callOnNode(page, backendNodeId, inPage.noteBeforeTyping)
    // A box of picked tokens is filled afresh, as a field is: Backspace in the empty box takes
    // back the last token (a requestor the app put in by default), while that removes one.
    if (offers) await clearTokens(page, backendNodeId)
    await page.call('Input.insertText', { text: value })
    // A box that offers suggestions (a requestor, a tag, a city) may keep only what is picked
    // from them and drop the typed text when it loses focus: a person picks the suggestion
    // that holds what they typed (docs/builder.md, "Forms as people use them"). Such a box may
    // open its list on a key rather than on input: End (which changes nothing typed) is pressed
    // and released, as the last key of typing would be.
    if (offers) {
      await pressKeys(page, 'End')
      await settle(page, { quietMs: 150, maxMs: 3_000 })
      const suggestion = await findSuggestion(page, backendNodeId, value)
      if (suggestion !== null) await clickNode(page, suggestion)
    }
  }
  const read = await callOnNode(page, backendNodeId, inPage.readElement)
  return { value: read.value ?? read.text }
}

async function clearTokens(page: PageTarget, backendNodeId: number): Promise<void> {
  // Text typed in the box goes first (prepareFill selected it); tokens go one Backspace each.
  if ((await callOnNode(page, backendNodeId, inPage.readElement)).value) await pressKeys(page, 'Backspace')
  let before = await callOnNode(page, backendNodeId, inPage.tokensBeside)
  for (let i = 0; i < 20 && before; i++) {
    await pressKeys(page, 'Backspace')
    // The box answers each key (its list refreshed, maybe from the server) before the next one.
    await settle(page, { quietMs: 150, maxMs: 3_000 })
    const after = await callOnNode(page, backendNodeId, inPage.tokensBeside)
    if (after.length >= before.length) return
    before = after
  }
}

const PICKER_FORMATS: Record<string, { pattern: RegExp; expected: string; example: string }> = {
  date: { pattern: /^\d{4}-\d{2}-\d{2}$/, expected: 'YYYY-MM-DD', example: '2024-03-05' },
  month: { pattern: /^\d{4}-\d{2}$/, expected: 'YYYY-MM', example: '2024-03' },
  week: { pattern: /^\d{4}-W\d{2}$/, expected: 'YYYY-Www', example: '2024-W10' },
  time: { pattern: /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/, expected: 'HH:MM or HH:MM:SS', example: '14:30' },
  'datetime-local': {
    pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/,
    expected: 'YYYY-MM-DDTHH:MM',
    example: '2024-03-05T14:30',
  },
}

/** The ISO value a native date/time input takes; other formats are refused, saying which one is expected. */
export function pickerValue(inputType: string, value: string): string {
  const format = PICKER_FORMATS[inputType]
  const text = value.trim()
  if (!format || text === '') return text
  let candidate = inputType === 'datetime-local' ? text.replace(' ', 'T') : text
  // A full ISO timestamp fills a date or month field with its date part.
  if (inputType === 'date' && /^\d{4}-\d{2}-\d{2}T/.test(candidate)) candidate = candidate.slice(0, 10)
  if (inputType === 'month' && /^\d{4}-\d{2}-\d{2}/.test(candidate)) candidate = candidate.slice(0, 7)
  if (format.pattern.test(candidate)) return candidate
  throw new DriverError(
    'UNSUPPORTED_ACTION',
    `Cannot fill the ${inputType} field with "${value}": it takes ${format.expected} (e.g. ${format.example}); ` +
      'send ISO dates, or convert with a template filter such as {{when | date:YYYY-MM-DD}}',
  )
}

/** Waits (on page changes, up to timeoutMs) for a scripted list to show the option. */
async function waitForOption(
  page: PageTarget,
  backendNodeId: number,
  value: string,
  timeoutMs: number,
): Promise<number | null> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const option = await findOption(page, backendNodeId, value)
    const remaining = deadline - performance.now()
    if (option !== null || remaining <= 0) return option
    await page.nextChange(remaining)
  }
}

export async function selectNode(
  page: PageTarget,
  backendNodeId: number,
  values: string[],
): Promise<ActionResult> {
  try {
    await clickPoint(page, backendNodeId)
  } catch (error) {
    // A native drop-down the page hides behind its own styled one (a select picker) has no box
    // of its own; it still holds the value, and the styled one follows its change event.
    const hidden = error instanceof DriverError && error.code === 'ELEMENT_OBSCURED'
    if (!hidden || !(await callOnNode(page, backendNodeId, inPage.isNativeSelect))) throw error
  }
  const outcome = await callOnNode(page, backendNodeId, inPage.selectNative, values)
  if (outcome.status === 'ok') return { value: outcome.selected.join(', ') }
  if (outcome.status === 'disabled') throw new DriverError('ELEMENT_DISABLED', 'The drop-down is disabled')
  if (outcome.status === 'missing') {
    throw new DriverError(
      'OPTION_NOT_FOUND',
      `No option "${outcome.wanted}"; the options are: ${outcome.available.map((a) => `"${a}"`).join(', ')}`,
    )
  }
  // A scripted list box or combobox: click the option like a user, opening the box first when it
  // is closed; a typeahead combobox gets the text typed and offers the option after that.
  for (const value of values) {
    let option = await findOption(page, backendNodeId, value)
    if (option === null) {
      await clickNode(page, backendNodeId)
      option = await waitForOption(page, backendNodeId, value, 500)
    }
    if (option === null && (await callOnNode(page, backendNodeId, inPage.typeaheadInput))) {
      await page.call('Input.insertText', { text: value })
      option = await waitForOption(page, backendNodeId, value, 5_000)
    }
    if (option === null) {
      const available = await listOptions(page, backendNodeId)
      const shown = available.length ? available.map((a) => `"${a}"`).join(', ') : 'none shown'
      throw new DriverError('OPTION_NOT_FOUND', `No option "${value}"; the options are: ${shown}`)
    }
    await clickNode(page, option)
  }
  const after = await callOnNode(page, backendNodeId, inPage.readElement)
  return { value: after.value || values.join(', ') }
}

export async function checkNode(
  page: PageTarget,
  backendNodeId: number,
  checked: boolean,
): Promise<ActionResult> {
  const before = await callOnNode(page, backendNodeId, inPage.checkedState)
  if (before === null)
    throw new DriverError('UNSUPPORTED_ACTION', 'The element is not a checkbox, radio button or switch')
  if (before === checked) return { checked }
  await clickNode(page, backendNodeId)
  const after = await callOnNode(page, backendNodeId, inPage.checkedState)
  if (after !== checked) {
    throw new DriverError(
      'UNSUPPORTED_ACTION',
      `Clicking did not ${checked ? 'check' : 'uncheck'} the element`,
    )
  }
  return { checked }
}

export async function focusNode(page: PageTarget, backendNodeId: number): Promise<void> {
  await clickPoint(page, backendNodeId)
  try {
    await page.call('DOM.focus', { backendNodeId })
  } catch (error) {
    if (error instanceof CdpProtocolError)
      throw new DriverError('UNSUPPORTED_ACTION', 'The element cannot take focus')
    throw error
  }
}

/** Performs an element action on a DOM node (the driver handles dialogs and the window itself). */
export async function performOnNode(
  page: PageTarget,
  node: number,
  action: ElementAction,
): Promise<ActionResult> {
  switch (action.kind) {
    case 'click':
      await clickNode(page, node, action)
      return {}
    case 'fill':
      return fillNode(page, node, action.value)
    case 'select':
      return selectNode(page, node, action.values)
    case 'check':
      return checkNode(page, node, action.checked)
    case 'keys':
      await focusNode(page, node)
      await pressKeys(page, action.keys)
      return {}
    case 'focus':
      await focusNode(page, node)
      return {}
    case 'read':
      return callOnNode(page, node, inPage.readElement)
  }
}
