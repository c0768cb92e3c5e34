// Native alert/confirm/prompt/beforeunload dialogs live outside the page's DOM and freeze it, so
// the driver models them itself: an `alertdialog` with the message as its name and OK/Cancel
// buttons (and the prompt's textbox) that are clicked and filled like any other element.
import { DriverError } from '../../../protocol/driver.ts'
import type { ActionResult, ElementAction, UiElement } from '../../../protocol/elements.ts'
import type { NativeDialog, PageTarget } from './page-target.ts'

const PART_OK = 'dialog-ok'
const PART_CANCEL = 'dialog-cancel'
const PART_INPUT = 'dialog-input'
const PART_SELF = 'dialog'

export function isDialogPart(part: string): boolean {
  return part.startsWith(PART_SELF)
}

export function dialogElement(dialog: NativeDialog, ref: (part: string) => string): UiElement {
  const children: UiElement[] = [
    { ref: ref(`${PART_SELF}-text`), role: 'text', name: dialog.message, states: [], children: [] },
  ]
  if (dialog.type === 'prompt') {
    children.push({
      ref: ref(PART_INPUT),
      role: 'textbox',
      name: dialog.message,
      value: dialog.promptText ?? dialog.defaultPrompt,
      states: ['focused'],
      children: [],
    })
  }
  children.push({ ref: ref(PART_OK), role: 'button', name: 'OK', states: [], children: [] })
  if (dialog.type !== 'alert')
    children.push({ ref: ref(PART_CANCEL), role: 'button', name: 'Cancel', states: [], children: [] })
  return { ref: ref(PART_SELF), role: 'alertdialog', name: dialog.message, states: ['modal'], children }
}

/** Performs an action on a part of the open native dialog. */
export async function actOnDialog(
  page: PageTarget,
  part: string,
  action: ElementAction,
): Promise<ActionResult> {
  const dialog = page.dialog
  if (!dialog) throw new DriverError('STALE_REF', 'The dialog this ref belongs to has closed')
  switch (action.kind) {
    case 'click':
      if (part === PART_OK) return close(page, true, dialog)
      if (part === PART_CANCEL) return close(page, false, dialog)
      break
    case 'keys':
      // What a user's Enter/Escape does in a native dialog.
      if (action.keys.trim() === 'Enter') return close(page, true, dialog)
      if (action.keys.trim() === 'Escape') return close(page, false, dialog)
      break
    case 'fill':
      if (part === PART_INPUT) {
        dialog.promptText = action.value
        return { value: action.value }
      }
      break
    case 'read':
      return part === PART_INPUT
        ? { text: dialog.message, value: dialog.promptText ?? dialog.defaultPrompt }
        : { text: dialog.message }
    case 'focus':
      return {}
  }
  throw new DriverError('UNSUPPORTED_ACTION', `Cannot ${action.kind} this part of the ${dialog.type} dialog`)
}

async function close(page: PageTarget, accept: boolean, dialog: NativeDialog): Promise<ActionResult> {
  // Browser-side command: it works while the renderer is frozen, unlike page.call().
  await page.session.send('Page.handleJavaScriptDialog', {
    accept,
    promptText: dialog.type === 'prompt' && accept ? (dialog.promptText ?? dialog.defaultPrompt) : undefined,
  })
  return {}
}
