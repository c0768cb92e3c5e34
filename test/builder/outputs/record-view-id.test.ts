// A create form drawn again after its send with the new record's id where it said "New Principal"
// (a groupware admin's principal form): the id the task returns is the value beside the caption
// holding the key's word ("Principal ID:"), with no question. Real Chromium.
import { expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

// The form drawn again after Create, now showing the new id where it said "New Principal", in a
// table of its own beside the record's "Delete Principal" link.
const FORM = (id?: number, username = '', fullname = '') => `<!doctype html><title>Principal</title>
<h1>${id ? 'Principal' : 'Create Principal'}</h1>${id ? '<p class="message">Creating new Principal record.</p>' : ''}
<form method="post"><table>
<tr><th class="right">Principal ID:</th><td class="left"><table width="100%" class="form_inner"><tr>
 <td>${id ?? 'New Principal'}</td><td align="right">${id ? `<a href="/delete?id=${id}" class="submit">Delete Principal</a>` : ''}</td>
</tr></table></td></tr>
<tr><th class="right">Username:</th><td class="left"><input name="username" value="${username}" aria-label="Username"></td></tr>
<tr><th class="right">Fullname:</th><td class="left"><input name="fullname" value="${fullname}" aria-label="Fullname"></td></tr>
<tr><th class="right"></th><td class="left"><input type="submit" value="${id ? 'Update' : 'Create'}"></td></tr>
</table></form>`

let next = 1001
const made: { id: number; username: string }[] = []
const rig = pageRig(async (req) => {
  if (req.method !== 'POST') return htmlPage(FORM())
  const f = await req.formData()
  const username = String(f.get('username') ?? '')
  const id = next++
  made.push({ id, username })
  return htmlPage(FORM(id, username, String(f.get('fullname') ?? '')))
})

test('the id is read beside the caption naming it; the record’s own “Update” is never pressed; nothing is asked', async () => {
  await rig.driver.launch({ url: rig.server.url.href })
  const port = localDesktop(rig.driver)
  const script = scriptedIO([])
  const result = await buildAutomation(port, script.io, {
    prompt: "Add a user account with this username and full name, and return the new user's ID",
    sample: {
      id: 's1',
      input: { username: 'priya', fullName: 'Priya Raman' },
      expect: { id: { $type: 'string' } },
    },
    previous: [],
  })
  expect(script.unexpected).toEqual([])
  if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
  // The form drawn again with the record's "Update" is the record made, not a preview to send on.
  expect(made.map((m) => m.username)).toEqual(['priya'])
  await rig.driver.launch({ url: rig.server.url.href })
  const run = await port.run(result.automation, { username: 'omar', fullName: 'Omar Haddad' })
  expect(run.result).toEqual({ id: String(made.at(-1)!.id) })
}, 60_000)
