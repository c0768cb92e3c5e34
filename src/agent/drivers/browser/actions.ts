// Element actions performed the way a user would: scroll into view, check that the element is
// enabled and actually under the pointer, then real mouse/keyboard input through `Input.*`.
import type { ActionResult, ElementAction } from '../../../protocol/elements.ts'
import { DriverError } from '../driver.ts'
import { CdpProtocolError } from './cdp-connection.ts'
import { pressKeys } from './keyboard.ts'
import { callOnNode, findOption } from './node-calls.ts'
import * as inPage from './page-functions.ts'
import type { PageTarget } from './page-target.ts'

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

export async function clickNode(
  page: PageTarget,
  backendNodeId: number,
  options: { button?: 'left' | 'right'; clickCount?: number } = {},
): Promise<void> {
  const point = await clickPoint(page, backendNodeId)
  const hit = await callOnNode(page, backendNodeId, inPage.checkHit, point.x, point.y)
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
    return { value: await callOnNode(page, backendNodeId, inPage.setValue, value) }
  }
  // Typing replaces the selection prepareFill made; an empty value deletes it instead.
  if (value === '') await pressKeys(page, 'Delete')
  else await page.call('Input.insertText', { text: value })
  const read = await callOnNode(page, backendNodeId, inPage.readElement)
  return { value: read.value ?? read.text }
}

export async function selectNode(
  page: PageTarget,
  backendNodeId: number,
  values: string[],
): Promise<ActionResult> {
  await clickPoint(page, backendNodeId)
  const outcome = await callOnNode(page, backendNodeId, inPage.selectNative, values)
  if (outcome.status === 'ok') return { value: outcome.selected.join(', ') }
  if (outcome.status === 'disabled') throw new DriverError('ELEMENT_DISABLED', 'The drop-down is disabled')
  if (outcome.status === 'missing') {
    throw new DriverError(
      'OPTION_NOT_FOUND',
      `No option "${outcome.wanted}"; the options are: ${outcome.available.map((a) => `"${a}"`).join(', ')}`,
    )
  }
  // A scripted list box: click the option like a user, opening the box first when it is closed.
  for (const value of values) {
    let option = await findOption(page, backendNodeId, value)
    if (option === null) {
      await clickNode(page, backendNodeId)
      option = await findOption(page, backendNodeId, value)
    }
    if (option === null) throw new DriverError('OPTION_NOT_FOUND', `No option "${value}" in this list`)
    await clickNode(page, option)
  }
  return { value: values.join(', ') }
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
