// A confirmation whose sentence holds a link to the record ("Issue #12 created.", "The item
// “WID-100” was changed successfully."): the browser splits it into text pieces around the link,
// and the piece that says "created" is only a fragment. The outcome's name is the whole sentence
// without the record's own values, never a fragment such as "” was changed successfully".
// Real Chromium reads the pages; the ending is judged as a build judges it.
import { expect, test } from 'bun:test'
import { successName } from '../../../src/builder/generalise.ts'
import { classifyEnding } from '../../../src/builder/observe/classify.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'

const FORM = '<form><label>Quantity <input name="q" value="7"></label><button>Save</button></form>'
const PAGES: Record<string, string> = {
  '/form': `<h1>Change item</h1>${FORM}`,
  '/changed': `<ul class="messagelist"><li class="success">The inventory item “<a href="/item/4">WID-100</a>” was changed successfully.</li></ul><h1>Select item to change</h1>`,
  '/created': `<div id="flash_notice" class="flash notice">Issue <a href="/issues/12" title="Printer jam">#12</a> created.</div><h2>Bug #12</h2>`,
  '/plain': '<div role="status">Saved.</div><h1>Change item</h1>',
}
const rig = pageRig((req) =>
  htmlPage(`<!doctype html><title>Items</title><body>${PAGES[new URL(req.url).pathname] ?? ''}</body>`),
)

async function endingAt(path: string, inputs: string[]) {
  const before = await rig.driver.launch({ url: `${rig.server.url.href}form` })
  const root = (await rig.driver.snapshot(before.id)).root
  await rig.driver.launch({ url: `${rig.server.url.href}${path.slice(1)}` })
  const after = (await rig.driver.snapshot(before.id)).root
  const ending = classifyEnding(root, after, [], inputs)
  if (!ending) throw new Error('no ending')
  return ending.name ?? successName(ending.message, inputs)
}

test('a confirmation split around the record’s link is named by its whole sentence', async () => {
  expect(await endingAt('/changed', ['WID-100', '7'])).toBe('The inventory item “…” was changed successfully')
  expect(await endingAt('/created', ['Printer jam'])).toBe('Issue created')
}, 60_000)

test('a confirmation in one piece keeps its own words', async () => {
  expect(await endingAt('/plain', ['7'])).toBe('Saved')
}, 60_000)
