import { describe, expect, test } from 'bun:test'
import { findWindow, type RunContext } from '../../src/automation/run-context.ts'
import { matchWindows } from '../../src/automation/window-match.ts'
import type { BuildIO, BuildRequest, DesktopPort } from '../../src/builder/contract.ts'
import { oneApp } from '../../src/builder/locate/locate-window.ts'
import { BuildSession } from '../../src/builder/session.ts'
import { appWindow } from '../../src/builder/verify/replay.ts'
import type { AppSpec, Automation } from '../../src/protocol/automation.ts'
import type { Driver } from '../../src/protocol/driver.ts'
import type { WindowInfo } from '../../src/protocol/elements.ts'

// One desktop: two tabs of a CRM, a mail tab (one without a URL, known by its app), a text
// editor showing a file named like the finance app's window, the finance app itself, and a
// Windows program. The editor comes first, as a window list in stacking order may put it.
const desktop: WindowInfo[] = [
  { id: 'orders', title: 'Orders – CRM', app: 'http://crm.test', kind: 'tab', url: 'http://crm.test/orders' },
  {
    id: 'people',
    title: 'Customers – CRM',
    app: 'http://crm.test',
    kind: 'tab',
    url: 'http://crm.test/people',
  },
  {
    id: 'inbox',
    title: 'Inbox – Mail',
    app: 'https://mail.test',
    kind: 'tab',
    url: 'https://mail.test/inbox',
  },
  { id: 'compose', title: 'Compose – Mail', app: 'https://mail.test', kind: 'tab' },
  { id: 'editor', title: 'Accounts - GnuCash.txt - Mousepad', app: 'mousepad', kind: 'window' },
  { id: 'gnucash', title: 'Accounts - GnuCash', app: 'gnucash', kind: 'window' },
  { id: 'ledger', title: 'Ledger 2.1', app: 'Ledger', kind: 'window' },
]

describe('matchWindows', () => {
  test.each<[string, AppSpec, string[]]>([
    ['any window when the spec names nothing', {}, desktop.map((w) => w.id)],
    ['url by origin, any page of it', { url: 'http://crm.test/orders/new' }, ['orders', 'people']],
    ['url and title (title without case)', { url: 'http://crm.test', titleContains: 'ORDERS' }, ['orders']],
    ['another port is another origin', { url: 'http://crm.test:8080/' }, []],
    [
      'url matches a tab without URL by its app (its origin)',
      { url: 'https://mail.test/' },
      ['inbox', 'compose'],
    ],
    [
      'title alone fits every program showing it',
      { titleContains: 'accounts - gnucash' },
      ['editor', 'gnucash'],
    ],
    // The case the builder's replay got wrong: it ignored processName and took the editor.
    [
      'processName narrows a shared title',
      { processName: 'gnucash', titleContains: 'Accounts - GnuCash' },
      ['gnucash'],
    ],
    ['processName without case', { processName: 'GnuCash' }, ['gnucash']],
    ['processName is the whole name, not a part', { processName: 'gnu' }, []],
    ['processName with .exe is the same program', { processName: 'ledger.exe' }, ['ledger']],
    ['executable: the basename of a Linux path', { executable: '/usr/bin/gnucash' }, ['gnucash']],
    [
      'executable: a Windows path with .EXE',
      { executable: 'C:\\Apps\\Ledger.EXE', args: ['--db', 'x'] },
      ['ledger'],
    ],
    [
      'processName wins over executable',
      { processName: 'mousepad', executable: '/usr/bin/gnucash' },
      ['editor'],
    ],
    [
      'executable beside a url names the browser, not the tab',
      { url: 'http://crm.test', executable: 'msedge.exe' },
      ['orders', 'people'],
    ],
    ['every part must fit', { processName: 'gnucash', titleContains: 'Mousepad' }, []],
  ])('%s', (_, spec, ids) => {
    expect(matchWindows(desktop, spec).map((w) => w.id)).toEqual(ids)
  })
})

// The two callers, over the same desktop and the spec a build writes for a native window
// (appSpecOf: processName + title): both must pick the finance app, not the editor.
const nativeSpec = { processName: 'gnucash', titleContains: 'Accounts - GnuCash' }

describe('both callers pick the window matchWindows picks', () => {
  test("the runner's findWindow", async () => {
    const driver = { listWindows: async () => desktop } as unknown as Driver
    const automation: Automation = { version: 1, app: nativeSpec, steps: [], scenarios: [] }
    const ctx: RunContext = {
      driver,
      automation,
      input: {},
      vars: {},
      defaultStepTimeoutMs: 1000,
      recheckMs: 100,
    }
    expect((await findWindow(ctx, nativeSpec)).id).toBe('gnucash')
    await expect(findWindow(ctx, { titleContains: 'Accounts' })).rejects.toThrow('Several windows match')
    await expect(findWindow(ctx, { processName: 'gnucash', titleContains: 'Budget' })).rejects.toThrow(
      'No window titled "*Budget*", of gnucash',
    )
  })

  test("the builder's replay (appWindow)", async () => {
    const port = { name: 'test', listWindows: async () => desktop } as unknown as DesktopPort
    const session = new BuildSession(port, {} as BuildIO, {} as BuildRequest)
    expect((await appWindow(session, nativeSpec)).id).toBe('gnucash')
    // Several fit: the window the build was using wins over the first listed.
    session.windowId = 'people'
    expect((await appWindow(session, { url: 'http://crm.test/' })).id).toBe('people')
    await expect(appWindow(session, { executable: '/usr/bin/kmymoney' })).rejects.toThrow(
      'The app’s window (of /usr/bin/kmymoney) is gone',
    )
  })
})

describe('windows of one native app', () => {
  const win = (id: string, title: string, executable: string, args: string[] = []) => ({
    id,
    title,
    app: executable,
    kind: 'window' as const,
    launchCommand: { executable, args },
  })
  test('a main window and its sign-in dialog, started by one command line, are one app: the first is used', () => {
    const main = win('1', 'Tryton - Login', 'tryton')
    expect(oneApp([main, win('2', 'Tryton - Login', 'tryton')])).toBe(main)
  })
  test('two apps, the same app on two files, or a browser tab are not one app', () => {
    expect(oneApp([win('1', 'A', 'gnucash'), win('2', 'A', 'homebank')])).toBeUndefined()
    expect(
      oneApp([win('1', 'A', 'gnumeric', ['a.gnumeric']), win('2', 'A', 'gnumeric', ['b.gnumeric'])]),
    ).toBeUndefined()
    expect(
      oneApp([{ id: 't', title: 'A', app: 'https://x', kind: 'tab' }, win('1', 'A', 'x')]),
    ).toBeUndefined()
  })
})
