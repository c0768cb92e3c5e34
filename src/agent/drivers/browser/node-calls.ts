// Calls into the page on one DOM node: the in-page functions of page-functions.ts run with the
// node as `this`, and nodes the page hands back are turned into backendNodeIds we can act on.
import { DriverError } from '../../../protocol/driver.ts'
import { CdpProtocolError } from './cdp-connection.ts'
import { findAriaOption, offeredSuggestion } from './page-functions.ts'

/** The labels of the visible ARIA options a scripted list offers now (for OPTION_NOT_FOUND). */
export async function listOptions(page: PageTarget, backendNodeId: number): Promise<string[]> {
  const labels = await callOnNode(
    page,
    backendNodeId,
    findAriaOption as (this: never, w: null) => unknown,
    null,
  )
  return Array.isArray(labels) ? (labels as string[]) : []
}

import type { PageTarget } from './page-target.ts'

type InPageFunction<A extends unknown[], R> = (this: never, ...args: A) => R

/** Runs one of page-functions.ts on the node and returns its (JSON) result. */
export async function callOnNode<A extends unknown[], R>(
  page: PageTarget,
  backendNodeId: number,
  fn: InPageFunction<A, R>,
  ...args: A
): Promise<R> {
  const objectId = await resolveNode(page, backendNodeId)
  try {
    const { result, exceptionDetails } = await page.call('Runtime.callFunctionOn', {
      objectId,
      functionDeclaration: fn.toString(),
      arguments: args.map((value) => ({ value })),
      returnByValue: true,
      awaitPromise: true,
    })
    if (exceptionDetails)
      throw new DriverError('PROTOCOL_ERROR', `In-page ${fn.name} failed: ${exceptionDetails.text}`)
    return result.value as R
  } finally {
    page.session.send('Runtime.releaseObject', { objectId }).catch(() => {})
  }
}

export async function resolveNode(page: PageTarget, backendNodeId: number): Promise<string> {
  try {
    const { object } = await page.call('DOM.resolveNode', { backendNodeId })
    if (!object.objectId) throw new DriverError('STALE_REF', 'The element is gone; take a new snapshot')
    return object.objectId
  } catch (error) {
    if (error instanceof CdpProtocolError)
      throw new DriverError('STALE_REF', 'The element is gone; take a new snapshot')
    throw error
  }
}

/** The ARIA option for `value` in a scripted list box (or null), as a backendNodeId. */
export function findOption(page: PageTarget, backendNodeId: number, value: string): Promise<number | null> {
  return nodeFrom(page, backendNodeId, findAriaOption.toString(), value)
}

/** The suggestion that appeared under a typed-into box and offers `value` (or null), as a backendNodeId. */
export function findSuggestion(
  page: PageTarget,
  backendNodeId: number,
  value: string,
): Promise<number | null> {
  return nodeFrom(page, backendNodeId, offeredSuggestion.toString(), value)
}

/** The element an in-page function returns for the node (or null), as a backendNodeId. */
async function nodeFrom(
  page: PageTarget,
  backendNodeId: number,
  functionDeclaration: string,
  value: string,
): Promise<number | null> {
  const objectId = await resolveNode(page, backendNodeId)
  try {
    const { result } = await page.call('Runtime.callFunctionOn', {
      objectId,
      functionDeclaration,
      arguments: [{ value }],
    })
    if (!result.objectId || result.subtype !== 'node') return null
    const { node } = await page.call('DOM.describeNode', { objectId: result.objectId })
    page.session.send('Runtime.releaseObject', { objectId: result.objectId }).catch(() => {})
    return node.backendNodeId
  } finally {
    page.session.send('Runtime.releaseObject', { objectId }).catch(() => {})
  }
}
