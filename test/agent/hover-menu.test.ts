// A menu whose entries show only while the pointer rests on their menu item (a classic CSS
// drop-down: `li:hover ul { visibility: visible }`). The accessibility tree leaves the folded
// entries out; the snapshot lists them under their menu item, and a click on one rests the pointer
// on the item first, as a person does. Entries taken out of the layout (`display: none`, also a
// navigation tree's collapsed branch, opened by a click) are not listed. Real Chromium.
import { expect, test } from 'bun:test'
import { resolveSelector } from '../../src/automation/selectors.ts'
import { actionElements } from '../../src/builder/screen.ts'
import type { UiElement } from '../../src/protocol/elements.ts'
import { elementsWhen, flatten, htmlPage, pageRig } from '../helpers/page-rig.ts'

const MENU = (hide: string, show: string) => `<!doctype html><title>Admin</title><style>
  .menu li { float: left; position: relative; list-style: none; padding: 0 1em }
  .menu ul ul { ${hide}; position: absolute; top: 1.2em; left: 0 }
  .menu ul li:hover ul { ${show} }
</style><div class="menu"><ul>
  <li><a href="/users">User Functions</a><ul><li><a href="/create">Create Principal</a></li><li><a href="/resources">List Resources</a></li></ul></li>
  <li><a href="/help">Help</a></li>
</ul></div><h1 style="clear: both">Welcome</h1><p>Below the menu sits the page's own text, where the folded entries would show.</p>`

const rig = pageRig((req) => {
  const { pathname, searchParams } = new URL(req.url)
  if (pathname === '/menu')
    return htmlPage(
      searchParams.get('by') === 'display'
        ? MENU('display: none', 'display: block')
        : MENU('visibility: hidden', 'visibility: visible'),
    )
  if (pathname === '/tree')
    // A menu tree: a branch folded away holds a link named like one shown elsewhere.
    return htmlPage(`<!doctype html><title>Tree</title><ul>
      <li><a href="/db/shop">shop</a><ul><li><a href="/db/shop/customers">customers</a></li></ul></li>
      <li><a href="/db/old">old</a><ul style="visibility:hidden"><li><a href="/db/old/customers">customers</a></li></ul></li>
    </ul>`)
  if (pathname === '/tooltip')
    return htmlPage(
      `<!doctype html><title>Tip</title><p><a href="/a">Visible</a><span style="visibility:hidden"><a href="/b">Hidden note</a></span></p>`,
    )
  return htmlPage(`<!doctype html><title>${pathname}</title><h1>${pathname}</h1>`)
})

const linkNamed = (all: UiElement[], name: string) => all.find((e) => e.role === 'link' && e.name === name)

test('entries taken out of the layout (display: none, as a collapsed tree branch) are not listed', async () => {
  const { id } = await rig.driver.launch({ url: `${rig.server.url.href}menu?by=display` })
  const all = flatten((await rig.driver.snapshot(id)).root)
  expect(linkNamed(all, 'User Functions')).toBeDefined()
  expect(linkNamed(all, 'Create Principal')).toBeUndefined()
}, 60_000)

for (const by of ['visibility']) {
  test(`entries folded by ${by} stand under their menu item, and a click on one opens it`, async () => {
    const { id } = await rig.driver.launch({ url: `${rig.server.url.href}menu?by=${by}` })
    const all = flatten((await rig.driver.snapshot(id)).root)
    const item = all.find((e) => e.role === 'listitem' && e.children.some((c) => c.name === 'User Functions'))
    const folded = item?.children.find((c) => c.role === 'list')
    expect(folded?.children.map((c) => c.name)).toEqual(['Create Principal', 'List Resources'])
    expect(folded?.children[0]?.href).toBe(`${rig.server.url.href}create`)
    await rig.driver.act(id, { kind: 'click', ref: linkNamed(all, 'Create Principal')!.ref })
    await rig.driver.waitForChange(id, 2_000).catch(() => undefined)
    const after = await rig.driver.snapshot(id)
    expect(new URL(after.window.url!).pathname).toBe('/create')
  }, 60_000)
}

test('a hidden link that is no menu entry stays out of the snapshot', async () => {
  const { id } = await rig.driver.launch({ url: `${rig.server.url.href}tooltip` })
  const all = flatten((await rig.driver.snapshot(id)).root)
  expect(linkNamed(all, 'Visible')).toBeDefined()
  expect(linkNamed(all, 'Hidden note')).toBeUndefined()
}, 60_000)

test('a person’s pointer resting on the entry (remote input `hover`) opens the menu; their click then lands on it', async () => {
  const { id } = await rig.driver.launch({ url: `${rig.server.url.href}menu?by=display` })
  const entry = linkNamed(flatten((await rig.driver.snapshot(id)).root), 'User Functions')!
  const { x, y, width, height } = entry.bounds!
  await rig.driver.input(id, { kind: 'hover', x: x + width / 2, y: y + height / 2 })
  const open = await elementsWhen(
    rig.driver,
    id,
    (all) => linkNamed(all, 'Create Principal')?.bounds !== undefined,
  )
  const shown = linkNamed(open, 'Create Principal')!
  // Shown now, it is the page's own link, no longer a folded entry.
  const folded = open.find((e) => e.role === 'list' && e.states.includes('collapsed'))
  expect(folded?.children.some((c) => c.name === 'Create Principal') ?? false).toBe(false)
  const at = shown.bounds!
  await rig.driver.input(id, { kind: 'click', x: at.x + at.width / 2, y: at.y + at.height / 2 })
  const landed = await elementsWhen(rig.driver, id, (all) =>
    all.some((e) => e.role === 'heading' && e.name === '/create'),
  )
  expect(landed.some((e) => e.role === 'heading' && e.name === '/create')).toBe(true)
}, 60_000)

test('exploring does not try the folded entries; the menu’s own entry it does', async () => {
  const { id } = await rig.driver.launch({ url: `${rig.server.url.href}menu?by=visibility` })
  const names = actionElements((await rig.driver.snapshot(id)).root).map((e) => e.name)
  expect(names).toContain('User Functions')
  expect(names).not.toContain('Create Principal')
}, 60_000)

test('a selector matching a shown link and a folded one of the same name finds the shown one', async () => {
  const { id } = await rig.driver.launch({ url: `${rig.server.url.href}tree` })
  const root = (await rig.driver.snapshot(id)).root
  const found = resolveSelector(root, {
    fingerprints: [{ by: 'role', role: 'link', name: 'customers', match: 'exact' }],
    description: 'the “customers” link',
  })
  expect(found.status).toBe('found')
  expect(found.status === 'found' && found.element.href).toBe(`${rig.server.url.href}db/shop/customers`)
}, 60_000)
