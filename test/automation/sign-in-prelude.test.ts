// The runner's sign-in prelude (automation.signIn) against an app model with a session: signed
// out at the start, a session that ends between two steps, no credentials, wrong credentials, a
// job without a prelude, and an old job whose guarded sign-in steps sit in its path.
import { describe, expect, test } from 'bun:test'
import { runAutomation } from '../../src/automation/index.ts'
import type { Automation, Selector, SignIn, Step } from '../../src/protocol/automation.ts'
import type { ChangeResult, Driver } from '../../src/protocol/driver.ts'
import type {
  ActionResult,
  ElementAction,
  Snapshot,
  UiElement,
  WindowInfo,
} from '../../src/protocol/elements.ts'

const USER = 'office'
const PASSWORD = 'pw-1'

/** A web app in memory: pages behind a sign-in form that goes back to the start page. */
class SessionApp implements Driver {
  readonly kind = 'browser'
  signedIn = false
  /** Ends the session after this many more actions or navigations (then every page is the form). */
  expireAfter = Number.POSITIVE_INFINITY
  path = '/'
  private typed: Record<string, string> = {}
  private refs = new Map<string, UiElement>()

  async start() {}
  async stop() {}
  async listWindows(): Promise<WindowInfo[]> {
    return [this.window()]
  }
  async launch(): Promise<WindowInfo> {
    this.path = '/'
    return this.window()
  }
  async navigate(_id: string, url: string): Promise<WindowInfo> {
    this.tick()
    this.path = new URL(url).pathname
    return this.window()
  }
  async focusWindow() {}
  async snapshot(): Promise<Snapshot> {
    this.refs.clear()
    let n = 0
    const el = (role: UiElement['role'], name: string, extra: Partial<UiElement> = {}): UiElement => {
      const e: UiElement = { ref: `e${n++}`, role, name, states: [], children: [], ...extra }
      this.refs.set(e.ref, e)
      return e
    }
    const children = !this.signedIn
      ? [
          el('heading', 'Sign in'),
          el('textbox', 'User name', { value: this.typed['User name'] ?? '' }),
          el('textbox', 'Password', { inputType: 'password', value: '' }),
          el('button', 'Sign in'),
        ]
      : this.path === '/users/new'
        ? [
            // A new user's form: a user name and a password asked twice, like the sign-in's fields.
            el('heading', 'Add user'),
            el('textbox', 'User name', { value: this.typed['User name'] ?? '' }),
            el('textbox', 'Password', { inputType: 'password', value: '' }),
            el('textbox', 'Password confirmation', { inputType: 'password', value: '' }),
            el('button', 'Save'),
          ]
        : this.path === '/records/7'
          ? [el('heading', 'Record 7'), el('text', 'Status: open', { automationId: 'status' })]
          : [el('heading', 'Home'), el('link', 'Records')]
    return {
      window: this.window(),
      root: el('window', 'App', { children }),
      capturedAt: new Date().toISOString(),
    }
  }
  async act(_id: string, action: ElementAction): Promise<ActionResult> {
    const element = this.refs.get(action.ref ?? '')
    if (!element) throw new Error(`no element ${action.ref}`)
    if (action.kind === 'fill') this.typed[element.name] = action.value
    if (action.kind === 'click' && element.name === 'Sign in') {
      // Like most apps, a sign-in lands on the start page, not where the visitor was going.
      if (this.typed['User name'] === USER && this.typed.Password === PASSWORD) this.signedIn = true
      this.typed = {}
      this.path = '/'
    }
    const read = action.kind === 'read' ? { text: element.name } : {}
    this.tick()
    return read
  }
  async screenshot(): Promise<Uint8Array> {
    return new Uint8Array()
  }
  async waitForChange(): Promise<ChangeResult> {
    return 'timeout'
  }
  private tick() {
    if (this.signedIn && --this.expireAfter < 0) {
      this.signedIn = false
      this.expireAfter = Number.POSITIVE_INFINITY
    }
  }
  private window(): WindowInfo {
    return { id: 'w1', title: 'App', app: 'http://app.test', kind: 'tab', url: `http://app.test${this.path}` }
  }
}

const role = (r: UiElement['role'], name: string): Selector => ({
  fingerprints: [{ by: 'role', role: r, name }],
})
const signIn: SignIn = {
  when: { kind: 'appears', target: role('textbox', 'Password') },
  steps: [
    {
      kind: 'fill',
      name: 'Sign in: fill “User name”',
      target: role('textbox', 'User name'),
      value: '{{$secrets.username}}',
    },
    {
      kind: 'fill',
      name: 'Sign in: fill “Password”',
      target: role('textbox', 'Password'),
      value: '{{$secrets.password}}',
    },
    { kind: 'click', name: 'Sign in: click “Sign in”', target: role('button', 'Sign in') },
  ],
}
const path: Step[] = [
  { kind: 'launch', name: 'Open the app' },
  { kind: 'navigate', name: 'Open /records/{{id}}', url: '/records/{{id}}' },
  {
    kind: 'read',
    name: 'Read the status',
    target: { fingerprints: [{ by: 'automationId', ids: ['status'] }] },
    into: 'status',
  },
]
const job = (extra: Partial<Automation> = {}): Automation => ({
  version: 1,
  app: { url: 'http://app.test/' },
  signIn,
  steps: path,
  scenarios: [],
  ...extra,
})
const secrets = { $secrets: { username: USER, password: PASSWORD } }
const fast = { screenshots: false, defaultStepTimeoutMs: 20, recheckMs: 5 }
const run = (app: SessionApp, automation: Automation, input: Record<string, unknown>) =>
  runAutomation(app, automation, input, {}, fast)
const trail = (r: Awaited<ReturnType<typeof run>>) => r.steps.map((s) => `${s.status} ${s.flowName}`)

describe('the sign-in prelude', () => {
  test('a signed-out app: the runner signs in before the first step that acts on it', async () => {
    const app = new SessionApp()
    const result = await run(app, job(), { id: 7, ...secrets })
    expect(result.status).toBe('succeeded')
    expect(result.result).toEqual({ status: 'Status: open' })
    expect(trail(result)).toEqual([
      'SUCCESS Open the app',
      'SUCCESS Sign in: fill “User name”',
      'SUCCESS Sign in: fill “Password”',
      'SUCCESS Sign in: click “Sign in”',
      'SUCCESS Open /records/{{id}}',
      'SUCCESS Read the status',
    ])
    expect(result.steps.map((s) => s.executionOrder)).toEqual([1, 2, 3, 4, 5, 6])
    expect(result.steps.at(-1)?.totalSteps).toBe(6)
  })

  test('a signed-in app: the prelude is not run', async () => {
    const app = new SessionApp()
    app.signedIn = true
    const result = await run(app, job(), { id: 7, ...secrets })
    expect(trail(result)).toEqual([
      'SUCCESS Open the app',
      'SUCCESS Open /records/{{id}}',
      'SUCCESS Read the status',
    ])
  })

  test('a session that ends mid-run: sign in, open the last address again, retry the step', async () => {
    const app = new SessionApp()
    app.signedIn = true
    app.expireAfter = 0 // the navigate ends it: the record's address shows the sign-in form
    const result = await run(app, job(), { id: 7, ...secrets })
    expect(result.status).toBe('succeeded')
    expect(result.result).toEqual({ status: 'Status: open' })
    expect(trail(result)).toEqual([
      'SUCCESS Open the app',
      'SUCCESS Open /records/{{id}}',
      'SKIPPED Read the status',
      'SUCCESS Sign in: fill “User name”',
      'SUCCESS Sign in: fill “Password”',
      'SUCCESS Sign in: click “Sign in”',
      'SUCCESS Open /records/{{id}}',
      'SUCCESS Read the status',
    ])
    expect(result.steps[2]?.result).toEqual({ skipped: expect.stringContaining('sign-in form') })
  })

  test('a new user’s form (a password asked twice) is no sign-in: the job’s credentials never go into it', async () => {
    const app = new SessionApp()
    app.signedIn = true
    const typed: Record<string, string>[] = []
    const act = app.act.bind(app)
    app.act = async (id, action) => {
      if (action.kind === 'fill') typed.push({ [app.path]: action.value })
      return act(id, action)
    }
    const addUser: Step[] = [
      { kind: 'launch', name: 'Open the app' },
      { kind: 'navigate', name: 'Open /users/new', url: '/users/new' },
      {
        kind: 'fill',
        name: 'Fill the user name',
        target: role('textbox', 'User name'),
        value: '{{username}}',
      },
      { kind: 'fill', name: 'Fill the password', target: role('textbox', 'Password'), value: '{{password}}' },
      {
        kind: 'fill',
        name: 'Fill it again',
        target: role('textbox', 'Password confirmation'),
        value: '{{password}}',
      },
      { kind: 'click', name: 'Save', target: role('button', 'Save') },
    ]
    const result = await run(app, job({ steps: addUser }), {
      username: 'priya',
      password: 'Lantern-42',
      ...secrets,
    })
    expect(result.status).toBe('succeeded')
    expect(typed).toEqual([
      { '/users/new': 'priya' },
      { '/users/new': 'Lantern-42' },
      { '/users/new': 'Lantern-42' },
    ])
    // A step that misses its target there misses it: the form is not taken for a sign-in.
    const missing: Step = {
      kind: 'click',
      name: 'Save and continue',
      target: role('button', 'Save and continue'),
    }
    const missed = await run(app, job({ steps: [...addUser.slice(0, 3), missing] }), {
      username: 'omar',
      password: 'Harbor-17',
      ...secrets,
    })
    expect(missed.status).toBe('failed')
    expect(missed.error?.code).toBe('ELEMENT_NOT_FOUND')
    expect(typed.at(-1)).toEqual({ '/users/new': 'omar' })
  })

  test('at most two sign-ins per run', async () => {
    const app = new SessionApp()
    const sessions: number[] = []
    // Every session ends at once: the run gives up after its second sign-in.
    const original = app.act.bind(app)
    app.act = async (id, action) => {
      const out = await original(id, action)
      if (app.signedIn) {
        sessions.push(1)
        app.expireAfter = 0
      }
      return out
    }
    const result = await run(app, job(), { id: 7, ...secrets })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('SIGN_IN_REQUIRED')
    expect(result.error?.message).toContain('again after 2 sign-ins')
    expect(result.steps.filter((s) => s.flowName.startsWith('Sign in: click')).length).toBe(2)
  })

  test('no credentials: SIGN_IN_REQUIRED before any step acts, saying how to store them', async () => {
    const app = new SessionApp()
    const result = await run(app, job(), { id: 7 })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('SIGN_IN_REQUIRED')
    expect(result.error?.message).toContain('deskhook jobs secret set')
    expect(result.error?.message).toContain('“username”, “password”')
    expect(trail(result)).toEqual([
      'SUCCESS Open the app',
      'SKIPPED Open /records/{{id}}',
      'SKIPPED Read the status',
    ])
  })

  test('no credentials and a session that ends mid-run: SIGN_IN_REQUIRED, not ELEMENT_NOT_FOUND', async () => {
    const app = new SessionApp()
    app.signedIn = true
    app.expireAfter = 0
    const result = await run(app, job(), { id: 7 })
    expect(result.error?.code).toBe('SIGN_IN_REQUIRED')
    expect(result.error?.step).toBe('Read the status')
    expect(trail(result).at(-1)).toBe('FAILED Read the status')
  })

  test('wrong credentials: SIGN_IN_REQUIRED, check them', async () => {
    const app = new SessionApp()
    const result = await run(app, job(), { id: 7, $secrets: { username: USER, password: 'nope' } })
    expect(result.error?.code).toBe('SIGN_IN_REQUIRED')
    expect(result.error?.message).toContain('did not get past the sign-in form')
  })

  test('a job without sign-in steps meeting a sign-in form fails SIGN_IN_REQUIRED', async () => {
    const app = new SessionApp()
    const result = await run(app, job({ signIn: undefined }), { id: 7, ...secrets })
    expect(result.error?.code).toBe('SIGN_IN_REQUIRED')
    expect(result.error?.message).toContain('no sign-in steps')
  })

  test('a job that uses its credentials in its own path keeps its own error on a sign-in form', async () => {
    const own = job({
      signIn: undefined,
      steps: [path[0]!, { ...signIn.steps[0]!, timeoutMs: 0 }, ...path.slice(1)],
    })
    const result = await run(new SessionApp(), own, { id: 7, ...secrets })
    expect(result.error?.code).toBe('ELEMENT_NOT_FOUND')
  })

  test('an old job: guarded sign-in steps in its path still sign in, and without secrets say so', async () => {
    const guarded = signIn.steps.map((s) => ({ ...s, onlyIf: signIn.when }))
    const old = job({ signIn: undefined, steps: [path[0]!, ...guarded, ...path.slice(1)] })
    const signedOut = await run(new SessionApp(), old, { id: 7, ...secrets })
    expect(signedOut.status).toBe('succeeded')
    const signedIn = new SessionApp()
    signedIn.signedIn = true
    const skipped = await run(signedIn, old, { id: 7, ...secrets })
    expect(trail(skipped).filter((s) => s.startsWith('SKIPPED'))).toHaveLength(3)
    const without = await run(new SessionApp(), old, { id: 7 })
    expect(without.error?.code).toBe('SIGN_IN_REQUIRED')
    expect(without.error?.message).toContain('deskhook jobs secret set')
  })
})
