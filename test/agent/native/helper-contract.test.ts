import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TSchema } from '@sinclair/typebox'
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import type { Subprocess } from 'bun'
import { buildUiaHelper } from '../../../scripts/build-uia-helper.ts'
import { installAtspiHelper } from '../../../src/agent/drivers/linux/index.ts'
import { HelperHost } from '../../../src/agent/drivers/native/helper-host.ts'
import { DriverError } from '../../../src/protocol/driver.ts'
import {
  HELPER_ACCESS_REASONS,
  HELPER_COMMANDS,
  HELPER_ERROR_CODES,
  HELPER_EVENTS,
  HELPER_PROTOCOL_VERSION,
  type HelperCommand,
  type HelperNode,
  HelperResponse,
  type HelperWindow,
} from '../../../src/protocol/helper.ts'
import { FAKE_UIA_HELPER } from '../../helpers/fake-uia-helper.ts'
import { type NativeDesktop, testLogger, useNativeDesktop } from '../../helpers/native-desktop.ts'
import { tempDir } from '../../helpers/temp-dir.ts'

/**
 * One contract, every helper (issue 22 item 7): the Linux AT-SPI helper on the test desktop, the
 * Windows UI Automation helper built from src/agent/drivers/windows/helper and run under mono, and
 * the fake helper the Windows driver tests use (test/helpers/fake-uia-helper.ts). CHECKS below is
 * the contract, written once; each helper's describe runs all of it. A check that needs what a
 * helper cannot have here (a desktop with windows: UI Automation under mono) is skipped for that
 * helper with the reason in its title, never silently. The checks speak raw JSON lines to the
 * helper's stdin/stdout (RawHelper), so the framing is tested too, and every line a helper writes
 * is held against src/protocol/helper.ts: a response against HelperResponse (and a result against
 * its command's result schema), an event line against HELPER_EVENTS.
 */

const COMMANDS = Object.keys(HELPER_COMMANDS) as HelperCommand[]
const checkResponse = TypeCompiler.Compile(HelperResponse)
const compiled = (part: 'args' | 'result') =>
  Object.fromEntries(
    COMMANDS.map((cmd) => [cmd, TypeCompiler.Compile<TSchema>(HELPER_COMMANDS[cmd][part])]),
  ) as Record<HelperCommand, TypeCheck<TSchema>>
const argsChecks = compiled('args')
const resultChecks = compiled('result')

/** A window no helper has: Linux ids are `<bus>/<path>`, Windows ids `<hwnd>@<pid>`. */
const NO_WINDOW = 'contract:no-such-window'
/** A deadline for one answer: far above any helper's, far below the test's. */
const ANSWER_MS = 10_000

interface Answer {
  id: string | null
  ok: boolean
  result?: unknown
  error?: { code: string; message: string; reason?: string }
}

/** What a helper wrote that the protocol does not allow, as sentences (none is the contract). */
function lineProblems(line: string, cmdOf: (id: string) => string | undefined): string[] {
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(line)
  } catch {
    return [`not a JSON line: ${line.slice(0, 200)}`]
  }
  if (typeof parsed === 'object' && parsed !== null && 'event' in parsed) {
    const schema = HELPER_EVENTS[parsed.event as keyof typeof HELPER_EVENTS] as TSchema | undefined
    if (!schema) return [`an event line of an unknown event: ${line}`]
    return Value.Check(schema, parsed) ? [] : [`an event line not valid against HELPER_EVENTS: ${line}`]
  }
  if (!checkResponse.Check(parsed)) return [`a line that is neither a HelperResponse nor an event: ${line}`]
  const answer = parsed as unknown as Answer
  if (!answer.ok) {
    const { code, reason } = answer.error!
    const problems: string[] = []
    if (!(HELPER_ERROR_CODES as readonly string[]).includes(code))
      problems.push(`an error code outside HELPER_ERROR_CODES: ${line}`)
    if (
      reason !== undefined &&
      (code !== 'ACCESS_DENIED' || !(HELPER_ACCESS_REASONS as readonly string[]).includes(reason))
    )
      problems.push(`a reason outside HELPER_ACCESS_REASONS or on another code than ACCESS_DENIED: ${line}`)
    return problems
  }
  const cmd = answer.id === null ? undefined : cmdOf(answer.id)
  if (cmd && cmd in resultChecks && !resultChecks[cmd as HelperCommand].Check(answer.result))
    return [`a ${cmd} result not valid against HELPER_COMMANDS.${cmd}.result: ${line}`]
  return []
}

/**
 * A helper process spoken to in raw JSON lines: `send` writes lines as they are, `request` writes
 * one request and waits for the answer of its id, `answered` waits for an answer (in the order the
 * helper wrote them) that no one took yet. Every line the helper writes is checked (lineProblems).
 */
class RawHelper {
  readonly proc: Subprocess<'pipe', 'pipe', 'pipe'>
  readonly problems: string[] = []
  readonly answers: Answer[] = []
  readonly #cmds = new Map<string, string>()
  readonly #taken = new Set<Answer>()
  readonly #waiters = new Set<() => void>()
  readonly #read: Promise<void>
  #stderr = ''
  #next = 0

  constructor(command: readonly string[], env?: Record<string, string>) {
    const proc = Bun.spawn([...command], { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe', env })
    this.proc = proc
    this.#read = this.#readLines(proc.stdout.getReader())
    void (async () => {
      const reader = proc.stderr.getReader()
      const decoder = new TextDecoder()
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        this.#stderr += decoder.decode(chunk.value, { stream: true })
    })()
  }

  async #readLines(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder()
    let buffered = ''
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffered += decoder.decode(chunk.value, { stream: true })
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        const line = buffered.slice(0, newline)
        buffered = buffered.slice(newline + 1)
        if (!line.trim()) continue
        this.problems.push(...lineProblems(line, (id) => this.#cmds.get(id)))
        try {
          const parsed = JSON.parse(line)
          if (!('event' in parsed)) {
            if (parsed.id !== null && this.answers.some((a) => a.id === parsed.id))
              this.problems.push(`a second answer for id ${parsed.id}: ${line}`)
            this.answers.push(parsed)
          }
        } catch {
          // Already a problem.
        }
        for (const wake of this.#waiters) wake()
      }
    }
    if (buffered.trim()) this.problems.push(`a last line without a newline: ${buffered}`)
    for (const wake of this.#waiters) wake()
  }

  send(text: string): void {
    this.proc.stdin.write(text)
    this.proc.stdin.flush()
  }

  /** Writes one request; its answer is `answered` by id. Returns the id. */
  post(cmd: string, args: unknown, id = `r${++this.#next}`): string {
    this.#cmds.set(id, cmd)
    this.send(`${JSON.stringify({ id, cmd, args })}\n`)
    return id
  }

  request(cmd: string, args: unknown): Promise<Answer> {
    const id = this.post(cmd, args)
    return this.answered((a) => a.id === id, `the answer to ${cmd} (id ${id})`)
  }

  /** The first answer not taken yet that matches, as soon as the helper wrote it. */
  answered(matches: (answer: Answer) => boolean, what: string, timeoutMs = ANSWER_MS): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const look = () => {
        const found = this.answers.find((a) => !this.#taken.has(a) && matches(a))
        if (found) {
          this.#taken.add(found)
          done()
          resolve(found)
        } else if (this.proc.exitCode !== null || this.proc.signalCode !== null) {
          done()
          reject(new Error(`the helper ended before ${what}; stderr:\n${this.#stderr.slice(-2000)}`))
        }
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`no ${what} within ${timeoutMs} ms; stderr:\n${this.#stderr.slice(-2000)}`))
      }, timeoutMs)
      const done = () => {
        clearTimeout(timer)
        this.#waiters.delete(look)
      }
      this.#waiters.add(look)
      look()
    })
  }

  /** Closes stdin and waits for the helper to end by itself: its exit code, or null past the deadline. */
  async finish(deadlineMs = 3_000): Promise<number | null> {
    this.proc.stdin.end()
    let timer: Timer | undefined
    const code = await Promise.race([
      this.proc.exited,
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), deadlineMs)
      }),
    ])
    clearTimeout(timer)
    if (code === null) this.proc.kill('SIGKILL')
    await this.#read
    return code
  }
}

/** What a check needs that a helper may not have here. */
type Need = 'desktop'

interface Context {
  subject: Subject
  /** A helper of this subject, ended (and its lines checked) after the check. */
  spawn(): RawHelper
}

interface Check {
  name: string
  needs?: Need
  timeoutMs?: number
  run(ctx: Context): Promise<void>
}

interface Subject {
  name: string
  backend: 'atspi' | 'uia'
  /** Whether the helper reaches a desktop here (windows to list); without one it answers DISCONNECTED. */
  desktop: boolean
  /** Why a check of that need cannot run against this helper. */
  cannot: Partial<Record<Need, string>>
  command(): readonly string[]
  env(): Record<string, string> | undefined
  /** A window to read (desktop helpers): its id and title. */
  window(): { id: string; title: string }
}

const fails = (answer: Answer, code: string) => {
  expect(answer).toMatchObject({ ok: false, error: { code } })
  expect(answer.error!.message.length).toBeGreaterThan(0)
}

function nodesOf(node: HelperNode): HelperNode[] {
  return [node, ...node.children.flatMap(nodesOf)]
}

/** Valid arguments for each command, aimed at nothing that exists (no window, no app). */
function harmlessArgs(cmd: HelperCommand): Record<string, unknown> {
  const args = Value.Create(HELPER_COMMANDS[cmd].args) as Record<string, unknown>
  if ('windowId' in args) args.windowId = NO_WINDOW
  if ('executable' in args) args.executable = 'deskhook-contract-no-such-app'
  if ('watch' in args) args.watch = 'contract-watch'
  if (cmd === 'hello') args.protocol = HELPER_PROTOCOL_VERSION
  expect(argsChecks[cmd].Check(args)).toBe(true)
  return args
}

/** A value of the wrong type for a property schema: what a confused caller could send. */
function mistyped(schema: TSchema): unknown {
  switch (schema.type) {
    case 'string':
      return 42
    case 'integer':
      return 1.5
    case 'number':
    case 'boolean':
      return 'x'
    case 'array':
      return schema.items?.type === 'string' ? [42] : ['x']
    default:
      return 'x'
  }
}

/**
 * For every argument of a command's schema: the argument mistyped, missing (when required) and
 * below its minimum (integers that have one). Each is invalid against the schema.
 */
function badArgs(cmd: HelperCommand): { args: Record<string, unknown>; what: string }[] {
  const cases: { args: Record<string, unknown>; what: string }[] = []
  const schema = HELPER_COMMANDS[cmd].args as TSchema
  const required = new Set<string>(schema.required ?? [])
  for (const [name, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
    cases.push({ args: { ...harmlessArgs(cmd), [name]: mistyped(property) }, what: `${name} mistyped` })
    if (required.has(name)) {
      const { [name]: _, ...rest } = harmlessArgs(cmd)
      cases.push({ args: rest, what: `${name} missing` })
    }
    if (typeof property.minimum === 'number')
      cases.push({ args: { ...harmlessArgs(cmd), [name]: property.minimum - 1 }, what: `${name} too small` })
  }
  for (const c of cases) expect(argsChecks[cmd].Check(c.args)).toBe(false)
  return cases
}

/** The name of the bad-arguments check of a command. */
const badArgsCheck = (cmd: HelperCommand) =>
  `${cmd} with a missing, mistyped or too small argument: BAD_REQUEST for each, and the helper stays up`

const CHECKS: Check[] = [
  {
    name: 'hello: the same protocol version, a result valid against its schema, its own pid and backend',
    async run({ spawn, subject }) {
      const helper = spawn()
      const hello = await helper.request('hello', { protocol: HELPER_PROTOCOL_VERSION })
      expect(hello.ok).toBe(true)
      expect(resultChecks.hello.Check(hello.result)).toBe(true)
      expect(hello.result).toMatchObject({
        protocol: HELPER_PROTOCOL_VERSION,
        backend: subject.backend,
        pid: helper.proc.pid,
      })
    },
  },
  {
    name: 'hello of another protocol version: PROTOCOL_MISMATCH naming both versions, and the helper goes on',
    async run({ spawn }) {
      const helper = spawn()
      const refused = await helper.request('hello', { protocol: HELPER_PROTOCOL_VERSION + 1 })
      fails(refused, 'PROTOCOL_MISMATCH')
      expect(refused.error!.message).toContain(String(HELPER_PROTOCOL_VERSION))
      expect(refused.error!.message).toContain(String(HELPER_PROTOCOL_VERSION + 1))
      expect((await helper.request('hello', { protocol: HELPER_PROTOCOL_VERSION })).ok).toBe(true)
    },
  },
  {
    name: 'the host (HelperHost) starts it, and refuses it when the agent speaks another version',
    async run({ subject }) {
      const host = (protocolVersion?: number) =>
        new HelperHost({
          command: [...subject.command()],
          env: subject.env(),
          log: testLogger(),
          protocolVersion,
        })
      const agreeing = host()
      try {
        const hello = await agreeing.start()
        expect(hello).toMatchObject({ protocol: HELPER_PROTOCOL_VERSION, backend: subject.backend })
      } finally {
        await agreeing.stop()
      }
      const other = host(HELPER_PROTOCOL_VERSION + 1)
      try {
        const error = await other.start().then(
          () => undefined,
          (e: unknown) => e,
        )
        expect(error).toBeInstanceOf(DriverError)
        expect((error as DriverError).code).toBe('PROTOCOL_ERROR')
        expect(other.pid).toBeUndefined()
      } finally {
        await other.stop()
      }
    },
  },
  {
    name: 'a line that is not JSON: BAD_REQUEST with id null, and the helper goes on',
    async run({ spawn }) {
      const helper = spawn()
      helper.send('this is not json\n')
      fails(
        await helper.answered((a) => a.id === null, 'the answer to a line that is not JSON'),
        'BAD_REQUEST',
      )
      expect((await helper.request('hello', { protocol: HELPER_PROTOCOL_VERSION })).ok).toBe(true)
    },
  },
  {
    name: 'a request without a string id or a string cmd: BAD_REQUEST (with its id when it has one)',
    async run({ spawn }) {
      const helper = spawn()
      const hello = { protocol: HELPER_PROTOCOL_VERSION }
      const withoutId = [
        { cmd: 'hello', args: hello },
        { id: 5, cmd: 'hello', args: hello },
        [1, 2],
        'hello',
        null,
      ]
      for (const line of withoutId) {
        helper.send(`${JSON.stringify(line)}\n`)
        fails(
          await helper.answered((a) => a.id === null, `the answer to ${JSON.stringify(line)}`),
          'BAD_REQUEST',
        )
      }
      helper.send(`${JSON.stringify({ id: 'no-cmd', args: {} })}\n`)
      fails(
        await helper.answered((a) => a.id === 'no-cmd', 'the answer to a request without cmd'),
        'BAD_REQUEST',
      )
      helper.send(`${JSON.stringify({ id: 'cmd-not-string', cmd: 7, args: {} })}\n`)
      fails(
        await helper.answered((a) => a.id === 'cmd-not-string', 'the answer to a numeric cmd'),
        'BAD_REQUEST',
      )
      // None of them was run: no answer but these.
      expect(helper.answers).toHaveLength(withoutId.length + 2)
    },
  },
  {
    name: 'args that are not an object: BAD_REQUEST with the request id',
    async run({ spawn }) {
      const helper = spawn()
      for (const args of ['x', [], [1], 5, true]) {
        const answer = await helper.request('listWindows', args)
        fails(answer, 'BAD_REQUEST')
      }
    },
  },
  {
    name: 'an unknown command: UNKNOWN_COMMAND with the same id, naming the command',
    async run({ spawn }) {
      const helper = spawn()
      const answer = await helper.request('frobnicate', {})
      fails(answer, 'UNKNOWN_COMMAND')
      expect(answer.error!.message).toContain('"frobnicate"')
    },
  },
  {
    name: 'concurrent requests, written at once: each answered once, with its own id',
    async run({ spawn }) {
      const helper = spawn()
      const sent: { id: string; cmd: string }[] = []
      let lines = ''
      for (let i = 0; i < 24; i++) {
        const cmd = i % 3 === 0 ? 'hello' : i % 3 === 1 ? 'session' : `unknown-${i}`
        const id = `c${i}`
        sent.push({ id, cmd })
        lines += `${JSON.stringify({ id, cmd, args: cmd === 'hello' ? { protocol: HELPER_PROTOCOL_VERSION } : {} })}\n`
      }
      helper.send(lines)
      for (const { id, cmd } of sent) {
        const answer = await helper.answered((a) => a.id === id, `the answer to ${id}`)
        if (cmd === 'hello') expect(answer.result).toMatchObject({ protocol: HELPER_PROTOCOL_VERSION })
        else if (cmd === 'session')
          expect(
            answer.ok ? resultChecks.session.Check(answer.result) : answer.error!.code === 'DISCONNECTED',
          ).toBe(true)
        else expect(answer.error?.message).toContain(`"${cmd}"`)
      }
      expect(helper.answers).toHaveLength(sent.length)
    },
  },
  {
    name: 'every command of HELPER_COMMANDS is known: valid arguments get a result valid against its schema or a typed error',
    async run({ spawn, subject }) {
      const helper = spawn()
      const ids = COMMANDS.map((cmd) => ({ cmd, id: helper.post(cmd, harmlessArgs(cmd)) }))
      for (const { cmd, id } of ids) {
        const answer = await helper.answered((a) => a.id === id, `the answer to ${cmd}`)
        if (answer.ok) {
          expect({ cmd, valid: resultChecks[cmd].Check(answer.result) }).toEqual({ cmd, valid: true })
          continue
        }
        // Known (not UNKNOWN_COMMAND), arguments accepted (not BAD_REQUEST), no crash (not INTERNAL):
        // what is left says why the command could not be done.
        expect({ cmd, code: answer.error!.code }).not.toMatchObject({
          code: expect.stringMatching(/^(UNKNOWN_COMMAND|BAD_REQUEST|INTERNAL|PROTOCOL_MISMATCH)$/),
        })
        // A helper without a desktop says so, whatever the command.
        if (!subject.desktop) expect({ cmd, code: answer.error!.code }).toEqual({ cmd, code: 'DISCONNECTED' })
      }
      expect((await helper.request('hello', { protocol: HELPER_PROTOCOL_VERSION })).ok).toBe(true)
    },
  },
  // One check per command that takes arguments, so a helper that disagrees on one command is
  // marked for that command only.
  ...COMMANDS.filter((cmd) => Object.keys((HELPER_COMMANDS[cmd].args as TSchema).properties).length > 0).map(
    (cmd): Check => ({
      name: badArgsCheck(cmd),
      async run({ spawn }) {
        const helper = spawn()
        const cases = badArgs(cmd).map((c) => ({ ...c, id: helper.post(cmd, c.args) }))
        const codes: Record<string, string> = {}
        for (const { what, id } of cases) {
          const answer = await helper.answered((a) => a.id === id, `the answer to ${cmd} with ${what}`)
          codes[what] = answer.ok ? 'ok' : answer.error!.code
        }
        expect(codes).toEqual(Object.fromEntries(cases.map(({ what }) => [what, 'BAD_REQUEST'])))
        expect((await helper.request('hello', { protocol: HELPER_PROTOCOL_VERSION })).ok).toBe(true)
      },
    }),
  ),
  {
    name: 'session: a state valid against its schema, or DISCONNECTED where there is no desktop to ask',
    async run({ spawn, subject }) {
      const answer = await spawn().request('session', {})
      if (subject.desktop) {
        expect(answer.ok).toBe(true)
        expect(resultChecks.session.Check(answer.result)).toBe(true)
      } else fails(answer, 'DISCONNECTED')
    },
  },
  {
    name: 'stdin closed: the helper exits by itself, with code 0, within 3 s',
    async run({ spawn }) {
      const helper = spawn()
      expect((await helper.request('hello', { protocol: HELPER_PROTOCOL_VERSION })).ok).toBe(true)
      expect(await helper.finish(3_000)).toBe(0)
    },
  },
  {
    name: 'listWindows: windows valid against HelperWindow, the test window among them',
    needs: 'desktop',
    async run({ spawn, subject }) {
      const answer = await spawn().request('listWindows', {})
      expect(answer.ok).toBe(true)
      const { windows } = answer.result as { windows: HelperWindow[] }
      expect(resultChecks.listWindows.Check(answer.result)).toBe(true)
      expect(windows.find((w) => w.id === subject.window().id)?.title).toBe(subject.window().title)
    },
  },
  {
    name: 'snapshot: valid against its schema, refs `<generation>:<index>` unique within it, a new generation each time',
    needs: 'desktop',
    async run({ spawn, subject }) {
      const helper = spawn()
      const generations: string[] = []
      for (let i = 0; i < 2; i++) {
        const answer = await helper.request('snapshot', { windowId: subject.window().id, maxElements: 500 })
        expect(answer.ok).toBe(true)
        expect(resultChecks.snapshot.Check(answer.result)).toBe(true)
        const { root, window, truncated, elementCount } = answer.result as {
          root: HelperNode
          window: HelperWindow
          truncated: boolean
          elementCount: number
        }
        expect(window.id).toBe(subject.window().id)
        const refs = nodesOf(root).map((n) => n.ref)
        for (const ref of refs) expect(ref).toMatch(/^\d+:\d+$/)
        expect(new Set(refs).size).toBe(refs.length)
        expect(new Set(refs.map((r) => r.split(':')[0])).size).toBe(1)
        expect(truncated).toBe(false)
        expect(elementCount).toBe(refs.length)
        generations.push(refs[0]!.split(':')[0]!)
      }
      expect(generations[1]).not.toBe(generations[0])
    },
  },
  {
    name: 'snapshot within an element budget: truncated, no more elements than the budget',
    needs: 'desktop',
    async run({ spawn, subject }) {
      const answer = await spawn().request('snapshot', { windowId: subject.window().id, maxElements: 2 })
      expect(answer.ok).toBe(true)
      const { root, truncated, elementCount } = answer.result as {
        root: HelperNode
        truncated: boolean
        elementCount: number
      }
      expect(truncated).toBe(true)
      expect(nodesOf(root).length).toBeLessThanOrEqual(2)
      expect(elementCount).toBe(nodesOf(root).length)
    },
  },
  {
    name: 'act on a ref of the latest snapshot answers; a ref of an older snapshot or a made-up one is STALE_REF',
    needs: 'desktop',
    async run({ spawn, subject }) {
      const helper = spawn()
      const windowId = subject.window().id
      const rootRef = async () => {
        const answer = await helper.request('snapshot', { windowId, maxElements: 500 })
        return (answer.result as { root: HelperNode }).root.ref
      }
      const older = await rootRef()
      const latest = await rootRef()
      const read = await helper.request('act', { windowId, action: { kind: 'read', ref: latest } })
      expect(read.ok).toBe(true)
      const generation = latest.split(':')[0]
      for (const ref of [older, `${generation}:999999`, 'no-ref'])
        fails(await helper.request('act', { windowId, action: { kind: 'read', ref } }), 'STALE_REF')
    },
  },
  {
    name: 'a window that does not exist: WINDOW_NOT_FOUND from every command that takes a windowId',
    needs: 'desktop',
    async run({ spawn }) {
      const helper = spawn()
      const takingWindow = COMMANDS.filter((cmd) => 'windowId' in harmlessArgs(cmd))
      expect(takingWindow.length).toBeGreaterThanOrEqual(7)
      const codes: Record<string, string> = {}
      for (const cmd of takingWindow) {
        const answer = await helper.request(cmd, harmlessArgs(cmd))
        codes[cmd] = answer.ok ? 'ok' : answer.error!.code
      }
      expect(codes).toEqual(Object.fromEntries(takingWindow.map((cmd) => [cmd, 'WINDOW_NOT_FOUND'])))
    },
  },
  {
    name: 'waitForChange with timeoutMs 0 on a quiet window: timeout',
    needs: 'desktop',
    async run({ spawn, subject }) {
      const answer = await spawn().request('waitForChange', { windowId: subject.window().id, timeoutMs: 0 })
      expect(answer).toEqual({ id: expect.any(String), ok: true, result: { result: 'timeout' } })
    },
  },
  {
    name: 'a slow request does not hold up a fast one: hello is answered while waitForChange waits',
    needs: 'desktop',
    async run({ spawn, subject }) {
      const helper = spawn()
      const wait = helper.post('waitForChange', { windowId: subject.window().id, timeoutMs: 1_500 })
      const hello = helper.post('hello', { protocol: HELPER_PROTOCOL_VERSION })
      await helper.answered((a) => a.id === hello, 'the answer to hello')
      const waited = await helper.answered((a) => a.id === wait, 'the answer to waitForChange')
      expect(waited.result).toEqual({ result: 'timeout' })
      expect(helper.answers.map((a) => a.id)).toEqual([hello, wait])
    },
  },
  {
    name: 'screenshot: a JPEG of the size it says',
    needs: 'desktop',
    async run({ spawn, subject }) {
      const answer = await spawn().request('screenshot', { windowId: subject.window().id })
      expect(answer.ok).toBe(true)
      const { jpeg, width, height } = answer.result as { jpeg: string; width: number; height: number }
      const bytes = Buffer.from(jpeg, 'base64')
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8])
      expect(width).toBeGreaterThan(0)
      expect(height).toBeGreaterThan(0)
    },
  },
  {
    name: 'watchInput names its watch, unwatchInput ends it (and an unknown watch is no error)',
    needs: 'desktop',
    async run({ spawn, subject }) {
      const helper = spawn()
      const watching = await helper.request('watchInput', { windowId: subject.window().id, watch: 'w1' })
      expect(watching.ok).toBe(true)
      expect(watching.result).toMatchObject({ watch: 'w1' })
      expect(await helper.request('unwatchInput', { watch: 'w1' })).toMatchObject({ ok: true, result: {} })
      expect(await helper.request('unwatchInput', { watch: 'never-started' })).toMatchObject({
        ok: true,
        result: {},
      })
    },
  },
]

/** Runs the contract against one helper: every check, or its stated reason for not running it. */
function contract(subject: Subject): void {
  for (const check of CHECKS) {
    // A check that needs what this helper cannot have here (windows, for UI Automation under
    // mono) is not registered for it: the subject's `cannot` says why, and the real PC proves it.
    if (check.needs && subject.cannot[check.needs]) continue
    const run = async () => {
      const spawned: RawHelper[] = []
      const ctx: Context = {
        subject,
        spawn() {
          const helper = new RawHelper(subject.command(), subject.env())
          spawned.push(helper)
          return helper
        },
      }
      try {
        await check.run(ctx)
      } finally {
        for (const helper of spawned) await helper.finish()
      }
      expect(spawned.flatMap((h) => h.problems)).toEqual([])
    }
    test(check.name, run, check.timeoutMs ?? 20_000)
  }
}

describe('the helper contract: the Linux AT-SPI helper on the test desktop', () => {
  const native: NativeDesktop = useNativeDesktop()
  const state = tempDir('deskhook-contract-')
  const command = installAtspiHelper(state.path)
  let window: { id: string; title: string } | undefined
  beforeAll(async () => {
    // A real app of its own session (it outlives the helper that started it), as in
    // helper-protocol.test.ts: a yad form, let settle so that a quiet window is quiet.
    const helper = new RawHelper(command, native.desktop.env)
    try {
      const launched = await helper.request('launch', {
        executable: 'yad',
        args: ['--form', '--title=Contract', '--field=Name', '--field=Agree:CHK'],
        timeoutMs: 20_000,
      })
      if (!launched.ok) throw new Error(`yad did not start: ${JSON.stringify(launched.error)}`)
      window = (launched.result as { window: HelperWindow }).window
      for (let i = 0; i < 20; i++) {
        const quiet = await helper.request('waitForChange', { windowId: window.id, timeoutMs: 300 })
        if ((quiet.result as { result: string }).result === 'timeout') break
      }
    } finally {
      await helper.finish()
    }
  }, 30_000)
  afterAll(() => state.remove())
  contract({
    name: 'the AT-SPI helper',
    backend: 'atspi',
    desktop: true,
    cannot: {},
    command: () => command,
    env: () => native.desktop.env,
    window: () => window!,
  })
})

// Mono and mcs come with `bun scripts/ensure-windows-tools.ts` (part of `bun run ci`).
describe('the helper contract: the UI Automation helper under mono (checks that need windows are for a real PC)', () => {
  // Built here into a folder of its own: the helper's bin/ is not touched.
  const folder = mkdtempSync(join(tmpdir(), 'deskhook-contract-uia-'))
  const exe = join(folder, 'uia-helper.exe')
  beforeAll(async () => {
    await buildUiaHelper(exe)
  }, 30_000)
  afterAll(() => rmSync(folder, { recursive: true, force: true }))
  contract({
    name: 'the UI Automation helper under mono',
    backend: 'uia',
    desktop: false,
    cannot: { desktop: 'needs UI Automation: cannot run under mono (Windows only), proven on a real PC' },
    command: () => ['mono', exe],
    env: () => undefined,
    window: () => {
      throw new Error('no windows under mono')
    },
  })
})

describe('the helper contract: the fake UIA helper of the Windows driver tests', () => {
  // The New customer form of test/fixtures/uia/winforms-customer.json.
  const window = { id: '0x50E42@6024', title: 'New customer' }
  contract({
    name: 'the fake UIA helper',
    backend: 'uia',
    desktop: true,
    cannot: {},
    command: () => FAKE_UIA_HELPER,
    env: () => undefined,
    window: () => window,
  })
})
