// Links and buttons drawn with an icon font (a folder, a cog: characters of Unicode's private use
// areas) in real Chromium: their names are the words a person reads beside the picture, and a
// selector saved with the glyph in it (by a build before this rule) still finds them.
import { describe, expect, test } from 'bun:test'
import { resolveSelector } from '../../src/automation/selectors.ts'
import { elementsWhen, htmlPage, pageRig } from '../helpers/page-rig.ts'

const PAGE = `<!doctype html><title>Mail</title>
<nav><a href="#inbox"><span>&#xf01c;</span> Inbox</a>
<a href="#suppliers"><span>&#xf07b;</span> Suppliers</a>
<button type="button"><i>&#xf013;</i>Settings</button>
<p>Rates rose by 4&#xa0;%&#xF0001;</p></nav>`

const rig = pageRig(() => htmlPage(PAGE))

describe('names drawn with an icon font', () => {
  test('are the words beside the glyph, and old selectors with the glyph still match', async () => {
    const window = await rig.driver.launch({ url: `${rig.server.url}` })
    const all = await elementsWhen(rig.driver, window.id, (all) => all.some((e) => e.role === 'button'))
    const names = all.filter((e) => e.role === 'link' || e.role === 'button').map((e) => e.name)
    expect(names).toEqual(['Inbox', 'Suppliers', 'Settings'])
    expect(all.some((e) => e.role === 'text' && e.name === 'Rates rose by 4 %')).toBe(true)
    const root = (await rig.driver.snapshot(window.id)).root
    const saved = { fingerprints: [{ by: 'role' as const, role: 'link' as const, name: '\uf07b Suppliers' }] }
    const found = resolveSelector(root, saved)
    expect(found.status).toBe('found')
    if (found.status === 'found') expect(found.element.name).toBe('Suppliers')
  }, 30_000)
})
