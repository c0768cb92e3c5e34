// A lookup shown by opening the record from its row (a user list, the user's ID link): the record
// opens in its edit form, whose Username box could take the sample's username. When that screen
// shows every value the sample expects, the person reached the answer: the recording is the whole
// task, not "the way to a form" that the builder should then fill in and send. Real Chromium
// reads the two screens; the recording is written as the recorder would report the click.
import { expect, test } from 'bun:test'
import { renderSelector, resolveSelector } from '../../../src/automation/selectors.ts'
import type { BuildRequest } from '../../../src/builder/contract.ts'
import { readDemonstration } from '../../../src/builder/demonstrate/demonstration.ts'
import { showsOnlyTheWay } from '../../../src/builder/demonstrate/shown-way.ts'
import { inputLeaves } from '../../../src/builder/input-leaves.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { RecordingKit } from './recording-kit.ts'

const USERS = [
  [1001, 'jsmith', 'John Smith', 'john.smith@example.org'],
  [1002, 'adoe', 'Ann Doe', 'ann.doe@example.org'],
] as const
const rig = pageRig((req) => {
  const { pathname } = new URL(req.url)
  const user = USERS.find(([id]) => pathname === `/users/${id}`)
  if (user)
    return htmlPage(`<!doctype html><title>Principal ${user[0]}</title><h1>Principal ${user[0]}</h1><form>
      <table><tr><th>Username:</th><td><input name="username" aria-label="Username" value="${user[1]}"></td></tr>
      <tr><th>Fullname:</th><td><input name="fullname" aria-label="Fullname" value="${user[2]}"></td></tr>
      <tr><th>Email Address:</th><td><input name="email" aria-label="Email Address" value="${user[3]}"></td></tr></table>
      <button>Update</button></form>`)
  return htmlPage(
    `<!doctype html><title>Users</title><h1>Users</h1><table><thead><tr><th>ID</th><th>Username</th><th>Fullname</th></tr></thead><tbody>${USERS.map(
      ([id, name, full]) =>
        `<tr><td><a href="/users/${id}">${id}</a></td><td>${name}</td><td>${full}</td></tr>`,
    ).join('')}</tbody></table>`,
  )
})

const input = { username: 'jsmith' }
const expected = { fullName: 'John Smith', email: 'john.smith@example.org' }

test('a shown lookup that ends on the record showing the expected values is the whole task', async () => {
  const { id } = await rig.driver.launch({ url: `${rig.server.url.href}users` })
  const list = await rig.driver.snapshot(id)
  await rig.driver.launch({ url: `${rig.server.url.href}users/1001` })
  const record = await rig.driver.snapshot(id)
  const recording = new RecordingKit([list, record]).click(0, 'link', '1001').recording()
  const leaves = inputLeaves(input)
  // Without expected values the record's form could be the form to fill in, as before.
  expect(showsOnlyTheWay(recording, leaves)).toBe(true)
  expect(showsOnlyTheWay(recording, leaves, Object.values(expected))).toBe(false)
  expect(showsOnlyTheWay(recording, leaves, ['Someone Else'])).toBe(true)

  // The recorded click is the task's move: the ID link in the row showing the caller's username.
  const request: BuildRequest = {
    prompt: 'Look up a user by username',
    sample: { id: 's1', input, expect: expected },
    previous: [],
  }
  const demo = readDemonstration(recording, request)
  if (demo.submit.kind !== 'click') throw new Error(`a ${demo.submit.kind} step`)
  expect(JSON.stringify(demo.submit.target.fingerprints)).not.toContain('1001')
  const again = resolveSelector(list.root, renderSelector(demo.submit.target, { username: 'adoe' }))
  expect(again.status === 'found' && again.element.name).toBe('1002')
}, 60_000)
