// Re-records the screens the output tests read (results pages of real apps, after their submit):
//   bun test/builder/outputs/snapshots/capture.ts [app…]   (dokuwiki, radicale, phpliteadmin, adminer-editor; default all)
// Each app is started the way the gauntlet starts it (test/gauntlet/apps), given test data, and
// the screen is captured with the real browser driver before and after the action that shows the
// outputs. Volatile parts (window id, port, capture time) are replaced so files change only when
// the element model or the apps do.
import { join } from 'node:path'
import { BrowserDriver } from '../../../../src/agent/drivers/browser/index.ts'
import { indexTree } from '../../../../src/automation/index.ts'
import type { Snapshot, UiElement } from '../../../../src/protocol/elements.ts'
import { startAdminerEditor } from '../../../gauntlet/apps/adminer-editor.ts'
import { startDokuWiki } from '../../../gauntlet/apps/dokuwiki.ts'
import { startPhpLiteAdmin } from '../../../gauntlet/apps/phpliteadmin.ts'
import { startRadicale } from '../../../gauntlet/apps/radicale.ts'

const driver = new BrowserDriver()
const apps = process.argv.slice(2)
const wanted = (app: string) => apps.length === 0 || apps.includes(app)
await driver.start()

async function save(
  name: string,
  url: string,
  origin: string,
  windowId?: string,
  folder = import.meta.dir,
): Promise<void> {
  const id = windowId ?? (await driver.launch({ url })).id
  const snapshot = await driver.snapshot(id)
  const stable: Snapshot = {
    ...snapshot,
    window: {
      ...snapshot.window,
      id: name,
      app: 'http://app',
      url: snapshot.window.url?.replace(origin, 'http://app'),
    },
    capturedAt: '2025-01-01T00:00:00.000Z',
  }
  const text = JSON.stringify(stable, null, 2).replaceAll(origin, 'http://app')
  await Bun.write(join(folder, `${name}.json`), `${text}\n`)
}

if (wanted('dokuwiki')) {
  const wiki = await startDokuWiki()
  try {
    wiki.putPage('invoice_rules', '====== Invoice rules ======\nEvery invoice needs a PO number.\n')
    wiki.putPage('holiday_plan', '====== Holiday plan ======\nBook holiday two weeks ahead.\n')
    wiki.putPage('invoice_archive', '====== Invoice archive ======\nOld invoice scans live on the share.\n')
    const origin = new URL(wiki.url).origin
    await save('dokuwiki-search-before', `${origin}/doku.php?id=start`, origin)
    await save('dokuwiki-search-results', `${origin}/doku.php?id=start&do=search&q=invoice`, origin)
  } finally {
    await wiki.stop()
  }
}

// Radicale's collections page after sign-in, with address books made over CardDAV (MKCOL).
if (wanted('radicale')) {
  const radicale = await startRadicale()
  try {
    const origin = new URL(radicale.url).origin
    const auth = `Basic ${btoa('office:x')}`
    for (const [id, title] of [
      ['suppliers', 'Suppliers'],
      ['family', 'Family'],
      ['press', 'Press contacts'],
    ]) {
      const made = await fetch(`${origin}/office/${id}/`, {
        method: 'MKCOL',
        headers: { authorization: auth, 'content-type': 'application/xml' },
        body: `<?xml version="1.0"?><mkcol xmlns="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav"><set><prop><resourcetype><collection/><CR:addressbook/></resourcetype><displayname>${title}</displayname></prop></set></mkcol>`,
      })
      if (made.status !== 201) throw new Error(`MKCOL ${id}: ${made.status} ${await made.text()}`)
    }
    const window = await driver.launch({ url: radicale.url })
    const login = await driver.snapshot(window.id)
    const boxes = indexTree(login.root).all.filter((e) => e.role === 'textbox')
    await driver.act(window.id, { kind: 'fill', ref: boxes[0]!.ref!, value: 'office' })
    await driver.act(window.id, { kind: 'fill', ref: boxes[1]!.ref!, value: 'x' })
    const next = indexTree(login.root).all.find((e) => e.role === 'button' && /next|login/i.test(e.name))!
    await driver.act(window.id, { kind: 'click', ref: next.ref! })
    await driver.waitForChange(window.id, 5000)
    for (let i = 0; i < 50; i++) {
      const shown = await driver.snapshot(window.id)
      if (indexTree(shown.root).all.some((e) => e.name === 'Press contacts')) break
      await driver.waitForChange(window.id, 200)
    }
    await save('radicale-collections', radicale.url, origin, window.id)
  } finally {
    await radicale.stop()
  }
}

// phpLiteAdmin's table search form, a form laid out as a table (field | type | operator | value),
// for the field-mapping tests (test/builder/values); its insert form filled in and the table it
// shows after Insert (the new row's id only in its row); and a row's edit form.
if (wanted('phpliteadmin')) {
  const plite = await startPhpLiteAdmin()
  try {
    const origin = new URL(plite.url).origin
    const window = await driver.launch({ url: plite.url })
    const login = await driver.snapshot(window.id)
    const password = indexTree(login.root).all.find((e) => e.role === 'textbox')!
    await driver.act(window.id, { kind: 'fill', ref: password.ref!, value: plite.password })
    const button = indexTree(login.root).all.find((e) => e.role === 'button')!
    await driver.act(window.id, { kind: 'click', ref: button.ref! })
    await driver.waitForChange(window.id, 5000)
    await driver.navigate(window.id, `${plite.url}?table=customers&action=table_search`)
    await save(
      'phpliteadmin-search',
      plite.url,
      origin,
      window.id,
      join(import.meta.dir, '../../values/snapshots'),
    )
    await driver.navigate(window.id, `${plite.url}?table=customers&action=row_create`)
    const form = await driver.snapshot(window.id)
    const values: Record<string, string> = {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      city: 'London',
      signup_date: '2026-11-20',
    }
    for (const [field, value] of Object.entries(values)) {
      const box = indexTree(form.root).all.find(
        (e) =>
          e.role === 'textbox' &&
          /^row_0_field_\d+_value$/.test(e.automationId ?? '') &&
          indexTree(form.root).parent.get(e) !== undefined &&
          rowOf(form, e) === field,
      )!
      await driver.act(window.id, { kind: 'fill', ref: box.ref!, value })
    }
    await save('phpliteadmin-insert-filled', plite.url, origin, window.id)
    const filled = await driver.snapshot(window.id)
    const insert = indexTree(filled.root).all.find((e) => e.role === 'button' && e.name === 'Insert')!
    await driver.act(window.id, { kind: 'click', ref: insert.ref! })
    await driver.waitForChange(window.id, 5000)
    await save('phpliteadmin-inserted', plite.url, origin, window.id)
    await driver.navigate(
      window.id,
      `${plite.url}?table=customers&action=row_editordelete&pk=%5B2%5D&type=edit`,
    )
    await save('phpliteadmin-edit-row', plite.url, origin, window.id)
  } finally {
    await plite.stop()
  }
}

// Adminer Editor (Debian's `adminer`, the data-entry UI for end users) on a shop database: a
// product's new-item form (its category a select of names, by a foreign key), the products list
// with its search form, and the list after an edit was saved.
if (wanted('adminer-editor')) {
  const shop = await startAdminerEditor()
  try {
    const origin = new URL(shop.url).origin
    const window = await driver.launch({ url: shop.url })
    const login = await driver.snapshot(window.id)
    const boxes = indexTree(login.root).all.filter((e) => e.role === 'textbox')
    await driver.act(window.id, { kind: 'fill', ref: boxes[0]!.ref!, value: 'office' })
    await driver.act(window.id, { kind: 'fill', ref: boxes[1]!.ref!, value: shop.password })
    const button = indexTree(login.root).all.find((e) => e.role === 'button' && e.name === 'Login')!
    await driver.act(window.id, { kind: 'click', ref: button.ref! })
    await driver.waitForChange(window.id, 5000)
    const base = `${shop.url}?sqlite=&username=office`
    await driver.navigate(window.id, `${base}&edit=products`)
    await save(
      'adminer-editor-new-item',
      shop.url,
      origin,
      window.id,
      join(import.meta.dir, '../../values/snapshots'),
    )
    await driver.navigate(window.id, `${base}&select=products`)
    await save(
      'adminer-editor-select',
      shop.url,
      origin,
      window.id,
      join(import.meta.dir, '../../values/snapshots'),
    )
    await driver.navigate(window.id, `${base}&edit=products&where%5Bid%5D=2`)
    await save(
      'adminer-editor-edit',
      shop.url,
      origin,
      window.id,
      join(import.meta.dir, '../../values/snapshots'),
    )
    // A new product filled in and the list Adminer shows after Save (its id and its category
    // number are both numbers in the new row).
    await driver.navigate(window.id, `${base}&edit=products`)
    const blank = await driver.snapshot(window.id)
    const product: Record<string, string> = {
      name: 'Hedge shears',
      sku: 'GT-110',
      price: '31.5',
      category_id: '1',
    }
    for (const row of indexTree(blank.root).all.filter((e) => e.role === 'row')) {
      const box = indexTree(row).all.find((e) => e.role === 'textbox' || e.role === 'spinbutton')
      const value = product[row.children[0]?.name ?? '']
      if (box && value) await driver.act(window.id, { kind: 'fill', ref: box.ref!, value })
    }
    await save('adminer-editor-insert-filled', shop.url, origin, window.id)
    const filled = await driver.snapshot(window.id)
    const saveNew = indexTree(filled.root).all.find((e) => e.role === 'button' && e.name === 'Save')!
    await driver.act(window.id, { kind: 'click', ref: saveNew.ref! })
    await driver.waitForChange(window.id, 5000)
    await save('adminer-editor-inserted', shop.url, origin, window.id)
    await driver.navigate(window.id, `${base}&edit=products&where%5Bid%5D=2`)
    const form = await driver.snapshot(window.id)
    const save1 = indexTree(form.root).all.find((e) => e.role === 'button' && e.name === 'Save')!
    await driver.act(window.id, { kind: 'click', ref: save1.ref! })
    await driver.waitForChange(window.id, 5000)
    await save('adminer-editor-saved', shop.url, origin, window.id)
  } finally {
    await shop.stop()
  }
}
await driver.stop()

/** The text of the first cell of the table row a control sits in ("city" for its value box). */
function rowOf(snapshot: Snapshot, element: UiElement): string {
  const index = indexTree(snapshot.root)
  let row = index.parent.get(element)
  while (row && row.role !== 'row') row = index.parent.get(row)
  return row?.children[0]?.name.trim() ?? ''
}
