// Which apps a build closes and which it starts again as it ends (src/agent/drivers/native/
// build-apps.ts): what a fresh start ends before the build started the app was open before it;
// what it ends once the build has started the app is the build's own, with the processes that
// instance spawned (which the build never saw start).
import { expect, test } from 'bun:test'
import { BuildApps } from '../../src/agent/drivers/native/build-apps.ts'

const editor = { executable: '/usr/bin/editor', args: ['notes.txt'] }
const viewer = { executable: '/usr/bin/viewer' }

test('an app open before the build is started again at its end; the build’s own are closed', () => {
  const apps = new BuildApps()
  apps.begin()
  apps.closed(editor, [100])
  apps.started(200, editor)
  // The next fresh start ends the build's instance and a process it spawned.
  apps.closed(editor, [200, 201])
  apps.started(300, editor)
  const end = apps.end()
  expect([...end.close]).toEqual([300])
  expect(end.reopen).toEqual([editor])
})

test('an app the build found closed is not started again, even when its instance spawned processes', () => {
  const apps = new BuildApps()
  apps.begin()
  apps.closed(viewer, [])
  apps.started(400, viewer)
  apps.closed(viewer, [400, 401, 402])
  apps.started(500, viewer)
  expect(apps.end()).toEqual({ close: new Set([500]), reopen: [] })
})

test('outside a build nothing is followed, and each build starts afresh', () => {
  const apps = new BuildApps()
  apps.closed(editor, [100])
  apps.started(200, editor)
  expect(apps.end()).toEqual({ close: new Set(), reopen: [] })
  apps.begin()
  expect(apps.end()).toEqual({ close: new Set(), reopen: [] })
})
