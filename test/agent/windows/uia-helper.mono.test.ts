import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildUiaHelper, HELPER_EXE, isFresh } from '../../../scripts/build-uia-helper.ts'
import { HelperHost } from '../../../src/agent/drivers/native/helper-host.ts'
import { createLogger } from '../../../src/lib/logger.ts'
import { DriverError } from '../../../src/protocol/driver.ts'
import { HELPER_PROTOCOL_VERSION } from '../../../src/protocol/helper.ts'

/**
 * The Windows UI Automation helper, compiled here by Debian's mcs and run under mono: everything
 * that does not need Windows (the protocol loop, hello, argument checks, typed errors, the COM
 * vtable layout, the embedded manifest). What needs UI Automation is proven on a real PC
 * (agent-installer/WINDOWS-CHECKLIST.md).
 */
const missing = ['mcs', 'mono'].filter((tool) => !Bun.which(tool))
if (missing.length)
  console.warn(
    `uia-helper.mono tests skipped: ${missing.join(' and ')} not installed ` +
      '(bun scripts/ensure-windows-tools.ts installs mono-mcs mono-runtime mono-devel)',
  )

const HELPER = ['mono', HELPER_EXE]

async function failure(promise: Promise<unknown>): Promise<DriverError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(DriverError)
    return error as DriverError
  }
  throw new Error('expected the call to fail')
}

function host(protocolVersion?: number) {
  const lines: Record<string, unknown>[] = []
  const destination = {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line.trim()) lines.push(JSON.parse(line))
      return true
    },
  } as unknown as NodeJS.WritableStream
  const log = createLogger({ level: 'debug', format: 'json', destination })
  return { helper: new HelperHost({ command: HELPER, log, protocolVersion }), lines }
}

interface Answer {
  id: string | null
  ok: boolean
  result?: unknown
  error?: unknown
}

/** The helper's answers to `input` (written at once, then stdin closed), its exit code and stderr. */
async function exchange(input: string) {
  const proc = Bun.spawn(HELPER, { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' })
  proc.stdin.write(input)
  proc.stdin.end()
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ])
  const answers = out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Answer)
  return { answers, code, stderr: err }
}

const byId = (answers: Answer[], id: string) => answers.find((a) => a.id === id)

/**
 * Runs `source` (a C# program's Main) under mono against the helper's own classes: for the parts
 * of the helper that decide without UI Automation (the snapshot's budget, the combo box's
 * notification), which no command reaches on a machine without it. Returns Main's stdout as JSON.
 */
async function runAgainstHelper(source: string): Promise<unknown> {
  const folder = mkdtempSync(join(tmpdir(), 'uia-helper-unit-'))
  try {
    copyFileSync(HELPER_EXE, join(folder, 'uia-helper.exe'))
    writeFileSync(join(folder, 'unit.cs'), source)
    const compile = Bun.spawn(
      ['mcs', '-r:uia-helper.exe', '-r:System.Core.dll', '-warnaserror+', '-out:unit.exe', 'unit.cs'],
      { cwd: folder, stdout: 'pipe', stderr: 'pipe' },
    )
    const [compiled, compileErrors, compileCode] = await Promise.all([
      new Response(compile.stdout).text(),
      new Response(compile.stderr).text(),
      compile.exited,
    ])
    if (compileCode !== 0) throw new Error(`mcs failed:\n${compiled}${compileErrors}`)
    const proc = Bun.spawn(['mono', 'unit.exe'], { cwd: folder, stdout: 'pipe', stderr: 'pipe' })
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ])
    if (code !== 0) throw new Error(`unit.exe exited ${code}:\n${err}`)
    return JSON.parse(out)
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** Combo.cs's decisions: which windows are Win32 combo boxes, and what is sent after a selection. */
const COMBO_PROGRAM = `
using System;
using System.Collections.Generic;
using Deskhook.Uia;

static class Unit
{
    static object Plan(string className, int style, int controlId, int current, int wanted, bool wantedIsItem)
    {
        var lines = new List<object>();
        foreach (var m in Combo.Plan(className, new IntPtr(0x1234), style, controlId, current, wanted, wantedIsItem))
            lines.Add((m.ToParent ? "post parent " : "send combo ") + m.Id.ToString("X4") + " " +
                      m.WParam.ToInt64().ToString("X8") + " " + m.LParam.ToInt64().ToString("X"));
        return lines;
    }

    static void Main()
    {
        var classes = new JsonObject();
        foreach (var name in new[] { "ComboBox", "WindowsForms10.COMBOBOX.app.0.141b42a_r6_ad1", "WindowsForms10.COMBOBOX.app.0.2bf8098_r9_ad1",
                                     "TComboBox", "ComboBoxEx32", "Edit", "WindowsForms10.EDIT.app.0.141b42a_r6_ad1", "combobox", "", "ComboLBox" })
            classes[name] = Combo.IsWin32ComboBox(name);
        var result = new JsonObject();
        result["classes"] = classes;
        // WS_CHILD | WS_VISIBLE | WS_VSCROLL | WS_TABSTOP with CBS_DROPDOWNLIST (3), CBS_DROPDOWN (2), CBS_SIMPLE (1).
        result["dropDownListNotMoved"] = Plan("ComboBox", 0x50210003, 1001, 0, 2, true);
        result["dropDownMoved"] = Plan("WindowsForms10.COMBOBOX.app.0.141b42a_r6_ad1", 0x50210002, 1001, 2, 2, true);
        result["simpleNothingSelected"] = Plan("ComboBox", 0x50210001, 7, -1, 0, true);
        result["otherTextThere"] = Plan("ComboBox", 0x50210003, 1001, 0, 2, false);
        result["highIdBits"] = Plan("TComboBox", 0x50210003, 0x12345, 1, 1, true);
        result["notACombo"] = Plan("Edit", 0x50010000, 1001, 0, 2, true);
        Console.WriteLine(Json.Write(result));
    }
}
`

/** A C# tree for Snapshot.Budget: each node names its children lazily and counts what was fetched. */
const BUDGET_PROGRAM = `
using System;
using System.Collections.Generic;
using Deskhook.Uia;

sealed class Node
{
    public string Name;
    public Func<Node, IEnumerable<Node>> Kids;
    public Node(string name, Func<Node, IEnumerable<Node>> kids) { Name = name; Kids = kids; }
}

static class Unit
{
    static int fetched, asked;
    static readonly List<string> askedFor = new List<string>();

    static IEnumerable<Node> Leaves(Node parent, int count)
    {
        for (var i = 0; i < count; i++) { fetched++; yield return new Node(parent.Name + "." + i, n => Leaves(n, 0)); }
    }

    static IEnumerable<Node> Of(Node parent, params Node[] kids)
    {
        foreach (var kid in kids) { fetched++; yield return kid; }
    }

    static Func<Node, IEnumerable<Node>> Width(int count) { return n => Leaves(n, count); }

    static string Run(Node[] tops, int budget)
    {
        fetched = 0; asked = 0; askedFor.Clear();
        var walk = new Snapshot.Budget<Node>(budget, n => { asked++; askedFor.Add(n.Name); return n.Kids(n); }, n => n.Name.EndsWith("scrollbar"));
        var kept = new List<string>();
        foreach (var top in tops)
        {
            var root = walk.Walk(top);
            kept.Add(root == null ? "null" : Flat(root));
        }
        return "{\\"count\\":" + walk.Count + ",\\"truncated\\":" + (walk.Truncated ? "true" : "false") + ",\\"fetched\\":" + fetched +
               ",\\"asked\\":" + asked + ",\\"askedFor\\":" + Json.Write(new List<object>(askedFor.ToArray())) +
               ",\\"kept\\":" + Json.Write(new List<object>(kept.ToArray())) + "}";
    }

    static string Flat(Snapshot.Budget<Node>.Kept node)
    {
        var parts = new List<string>();
        foreach (var child in node.Children) parts.Add(Flat(child));
        return node.Node.Name + (parts.Count > 0 ? "(" + string.Join(" ", parts.ToArray()) + ")" : "");
    }

    static Node Small()
    {
        return new Node("win", n => Of(n,
            new Node("toolbar", Width(2)),
            new Node("scrollbar", Width(3)),
            new Node("status", Width(1))));
    }

    static void Main()
    {
        // A mail client: a toolbar, a list of a million messages (each a row of 5 cells), a status bar.
        var big = new Node("win", n => Of(n,
            new Node("toolbar", Width(3)),
            new Node("grid", g => Leaves(g, 1000000)),
            new Node("status", Width(1))));
        var results = new List<string>
        {
            Run(new[] { Small() }, 10),
            Run(new[] { Small() }, 6),
            Run(new[] { Small() }, 5),
            Run(new[] { big }, 100),
            Run(new[] { Small(), new Node("dialog", Width(4)) }, 8),
        };
        Console.WriteLine("[" + string.Join(",", results.ToArray()) + "]");
    }
}
`

describe.skipIf(missing.length > 0)('the UIA helper under mono', () => {
  beforeAll(async () => {
    if (!isFresh()) await buildUiaHelper()
  }, 120_000)

  const running: HelperHost[] = []
  afterAll(async () => {
    await Promise.all(running.map((h) => h.stop()))
  })

  test('hello: the host starts it and both speak the same protocol version', async () => {
    const { helper } = host()
    running.push(helper)
    const hello = await helper.start()
    expect(hello).toMatchObject({ protocol: HELPER_PROTOCOL_VERSION, backend: 'uia', helperVersion: '1.0.0' })
    expect(hello.pid).toBeGreaterThan(0)
    // It says where it runs and that UI Automation is missing here, rather than failing hello.
    expect(hello.runtime).toContain('mono')
    expect(hello.runtime).toContain('UI Automation unavailable')
    await helper.stop()
  }, 30_000)

  test('an agent of another protocol version is refused, naming both versions', async () => {
    const { helper } = host(HELPER_PROTOCOL_VERSION + 1)
    const error = await failure(helper.start())
    expect(error.code).toBe('PROTOCOL_ERROR')
    expect(error.message).toContain(`the helper speaks protocol ${HELPER_PROTOCOL_VERSION}`)
    expect(error.message).toContain(`the agent ${HELPER_PROTOCOL_VERSION + 1}`)
    await helper.stop()
  }, 30_000)

  test('a malformed line gets a typed error and the loop goes on; closing stdin ends it cleanly', async () => {
    const { answers, code, stderr } = await exchange(
      [
        'this is not json',
        '{"cmd": "hello"}',
        '{"id": "a", "cmd": "hello", "args": []}',
        '{"id": "b", "cmd": "hello", "args": {"protocol": "two"}}',
        `{"id": "c", "cmd": "hello", "args": {"protocol": ${HELPER_PROTOCOL_VERSION}}}`,
        '',
      ].join('\n'),
    )
    expect(answers[0]).toEqual({
      id: null,
      ok: false,
      error: { code: 'BAD_REQUEST', message: 'not a JSON line' },
    })
    expect(answers[1]).toMatchObject({ id: null, ok: false, error: { code: 'BAD_REQUEST' } })
    expect(byId(answers, 'a')).toEqual({
      id: 'a',
      ok: false,
      error: { code: 'BAD_REQUEST', message: 'args must be an object' },
    })
    expect(byId(answers, 'b')?.error).toEqual({
      code: 'BAD_REQUEST',
      message: 'argument "protocol" must be an integer',
    })
    expect(byId(answers, 'c')).toMatchObject({ ok: true, result: { protocol: HELPER_PROTOCOL_VERSION } })
    expect(code).toBe(0)
    expect(stderr).toContain('malformed request line')
    // stderr carries JSON log lines the host can level.
    for (const line of stderr.trim().split('\n')) expect(JSON.parse(line)).toHaveProperty('msg')
  }, 30_000)

  test('strings cross the channel intact: escapes, non-ASCII, astral characters, line separators', async () => {
    const id = 'é "quoted" \\ \u2028 tab\t 😀 \u0001'
    const { answers } = await exchange(
      `${JSON.stringify({ id, cmd: 'hello', args: { protocol: HELPER_PROTOCOL_VERSION } })}\n`,
    )
    expect(answers).toHaveLength(1)
    expect(answers[0]).toMatchObject({ id, ok: true })
  }, 30_000)

  test('an unknown command is a typed error naming it; the helper keeps serving', async () => {
    const { helper } = host()
    running.push(helper)
    await helper.start()
    const pid = helper.pid
    const error = await failure(helper.request('frobnicate', {}))
    expect(error.code).toBe('PROTOCOL_ERROR')
    expect(error.message).toBe('UNKNOWN_COMMAND: Unknown command "frobnicate"')
    expect(helper.pid).toBe(pid)
    await helper.stop()
  }, 30_000)

  test('missing or mistyped arguments are BAD_REQUEST naming the argument, checked before UI Automation', async () => {
    const { helper } = host()
    running.push(helper)
    await helper.start()
    const cases: [string, Record<string, unknown>, string][] = [
      ['snapshot', {}, 'missing argument "windowId"'],
      ['snapshot', { windowId: '0x10@4' }, 'missing argument "maxElements"'],
      ['snapshot', { windowId: '0x10@4', maxElements: 'all' }, 'argument "maxElements" must be an integer'],
      ['snapshot', { windowId: '0x10@4', maxElements: 0 }, 'argument "maxElements" must be at least 1'],
      ['act', { windowId: '0x10@4' }, 'missing argument "action"'],
      ['act', { windowId: '0x10@4', action: {} }, 'missing argument "kind"'],
      ['act', { windowId: '0x10@4', action: { kind: 'fill', ref: '1.2' } }, 'missing argument "value"'],
      ['act', { windowId: '0x10@4', action: { kind: 'click' } }, 'missing argument "ref" (click needs one)'],
      [
        'act',
        { windowId: '0x10@4', action: { kind: 'select', ref: '1', values: [1] } },
        'argument "values" must be an array of strings',
      ],
      ['act', { windowId: '0x10@4', action: { kind: 'check', ref: '1' } }, 'missing argument "checked"'],
      ['waitForChange', { windowId: '0x10@4' }, 'missing argument "timeoutMs"'],
      ['launch', { timeoutMs: 1000 }, 'missing argument "executable"'],
      ['close', { pids: ['x'] }, 'argument "pids" must be an array of integers'],
      ['watchInput', { windowId: '0x10@4' }, 'missing argument "watch"'],
      ['input', { windowId: '0x10@4', input: { kind: 'type' } }, 'missing argument "text"'],
      ['hello', {}, 'missing argument "protocol"'],
    ]
    for (const [cmd, args, message] of cases) {
      const error = await failure(helper.request(cmd, args))
      expect({ cmd, message: error.message }).toEqual({ cmd, message: `BAD_REQUEST: ${message}` })
    }
    await helper.stop()
  }, 30_000)

  test('commands that need UI Automation fail typed (DISCONNECTED, saying why), and the helper stays up', async () => {
    const { helper } = host()
    running.push(helper)
    await helper.start()
    const pid = helper.pid
    const calls: [string, Record<string, unknown>][] = [
      ['listWindows', {}],
      ['snapshot', { windowId: '0x10@4', maxElements: 100 }],
      ['act', { windowId: '0x10@4', action: { kind: 'click', ref: '42.1.2' } }],
      ['act', { windowId: '0x10@4', action: { kind: 'keys', keys: 'Control+A Delete' } }],
      ['screenshot', { windowId: '0x10@4' }],
      ['waitForChange', { windowId: '0x10@4', timeoutMs: 100 }],
      ['focus', { windowId: '0x10@4' }],
      ['launch', { executable: 'notepad.exe', timeoutMs: 1000 }],
      ['close', { pids: [1234] }],
      ['watchInput', { windowId: '0x10@4', watch: 'w1' }],
      ['input', { windowId: '0x10@4', input: { kind: 'key', key: 'Enter' } }],
    ]
    for (const [cmd, args] of calls) {
      const error = await failure(helper.request(cmd, args))
      expect({ cmd, code: error.code }).toEqual({ cmd, code: 'DISCONNECTED' })
      expect(error.message).toContain('The UI Automation backend is unavailable')
      expect(error.message).toContain('not Windows')
    }
    // The typed host call says the same.
    const listed = await failure(helper.call('listWindows', {}))
    expect(listed.code).toBe('DISCONNECTED')
    expect(helper.pid).toBe(pid)
    expect(helper.instance).toBe(1)
    await helper.stop()
  }, 30_000)

  test('stdin closing ends it at once with code 0, also with nothing asked', async () => {
    const started = performance.now()
    const { answers, code } = await exchange('')
    expect(answers).toEqual([])
    expect(code).toBe(0)
    expect(performance.now() - started).toBeLessThan(10_000)
    // Requests read before stdin closed are answered before it exits (a piped PowerShell session).
    const piped = await exchange(
      [
        '{"id": "1", "cmd": "listWindows", "args": {}}',
        '{"id": "2", "cmd": "waitForChange", "args": {"windowId": "0x10@4", "timeoutMs": 10}}',
        '',
      ].join('\n'),
    )
    expect(piped.answers.map((a) => a.id).sort()).toEqual(['1', '2'])
    expect(piped.code).toBe(0)
  }, 30_000)

  test("its COM interfaces keep UIAutomationClient.idl's vtable slots", async () => {
    const proc = Bun.spawn([...HELPER, '--check-vtables'], { stdout: 'pipe', stderr: 'pipe' })
    const slots = JSON.parse(await new Response(proc.stdout).text()) as Record<string, Record<string, number>>
    expect(await proc.exited).toBe(0)
    // Slot = 3 (IUnknown) + the method's place in the IDL: the methods the helper calls, and the last one of each
    // interface (a missing placeholder anywhere before it moves it).
    const expected: Record<string, Record<string, number>> = {
      IUIAutomation: {
        ElementFromHandle: 6,
        ElementFromPoint: 7,
        GetFocusedElement: 8,
        ElementFromHandleBuildCache: 10,
        get_ControlViewWalker: 14,
        get_ControlViewCondition: 18,
        CreateCacheRequest: 20,
        CreatePropertyCondition: 23,
        CreateOrCondition: 28,
        AddAutomationEventHandler: 32,
        RemoveAutomationEventHandler: 33,
        AddPropertyChangedEventHandlerNativeArray: 34,
        RemovePropertyChangedEventHandler: 36,
        AddFocusChangedEventHandler: 39,
        RemoveFocusChangedEventHandler: 40,
        get_ReservedNotSupportedValue: 54,
        ElementFromIAccessibleBuildCache: 57,
      },
      IUIAutomation2: { put_ConnectionTimeout: 61, put_TransactionTimeout: 63 },
      IUIAutomationElement: {
        SetFocus: 3,
        GetRuntimeId: 4,
        FindFirst: 5,
        FindAll: 6,
        BuildUpdatedCache: 9,
        GetCachedPropertyValue: 12,
        GetCurrentPattern: 16,
        GetCachedChildren: 19,
        get_CurrentProcessId: 20,
        get_CurrentControlType: 21,
        get_CurrentName: 23,
        get_CurrentHasKeyboardFocus: 26,
        get_CurrentIsEnabled: 28,
        get_CurrentIsPassword: 35,
        get_CurrentNativeWindowHandle: 36,
        get_CurrentIsOffscreen: 38,
        get_CurrentBoundingRectangle: 43,
        GetClickablePoint: 84,
      },
      IUIAutomationElementArray: { get_Length: 3, GetElement: 4 },
      IUIAutomationCacheRequest: { AddProperty: 3, put_TreeScope: 7, put_TreeFilter: 9 },
      IUIAutomationTreeWalker: {
        GetParentElement: 3,
        GetFirstChildElement: 4,
        GetNextSiblingElement: 6,
        GetFirstChildElementBuildCache: 10,
        GetNextSiblingElementBuildCache: 12,
      },
      IUIAutomationInvokePattern: { Invoke: 3 },
      IUIAutomationValuePattern: { SetValue: 3, get_CurrentValue: 4, get_CurrentIsReadOnly: 5 },
      IUIAutomationRangeValuePattern: {
        SetValue: 3,
        get_CurrentValue: 4,
        get_CurrentMaximum: 6,
        get_CurrentMinimum: 7,
      },
      IUIAutomationSelectionItemPattern: { Select: 3, AddToSelection: 4, get_CurrentIsSelected: 6 },
      IUIAutomationSelectionPattern: { GetCurrentSelection: 3 },
      IUIAutomationExpandCollapsePattern: { Expand: 3, Collapse: 4, get_CurrentExpandCollapseState: 5 },
      IUIAutomationTogglePattern: { Toggle: 3, get_CurrentToggleState: 4 },
      IUIAutomationScrollItemPattern: { ScrollIntoView: 3 },
      IUIAutomationTablePattern: { GetCurrentColumnHeaders: 4 },
      IUIAutomationWindowPattern: { get_CurrentIsModal: 8 },
      IUIAutomationTextPattern: { get_DocumentRange: 7 },
      IUIAutomationTextRange: { GetText: 12 },
      IUIAutomationLegacyIAccessiblePattern: { DoDefaultAction: 4 },
      IUIAutomationEventHandler: { HandleAutomationEvent: 3 },
      IUIAutomationPropertyChangedEventHandler: { HandlePropertyChangedEvent: 3 },
      IUIAutomationFocusChangedEventHandler: { HandleFocusChangedEvent: 3 },
    }
    for (const [iface, methods] of Object.entries(expected))
      for (const [method, slot] of Object.entries(methods))
        expect({ iface, method, slot: slots[iface]?.[method] }).toEqual({ iface, method, slot })
    // Whole interfaces: IUIAutomation has 55 methods, IUIAutomationElement 82.
    expect(Object.keys(slots.IUIAutomation!)).toHaveLength(55)
    expect(Object.keys(slots.IUIAutomationElement!)).toHaveLength(82)
  }, 30_000)

  test('the snapshot budget is applied while walking: a million-row grid is read only as far as the budget', async () => {
    type Run = {
      count: number
      truncated: boolean
      fetched: number
      asked: number
      askedFor: string[]
      kept: string[]
    }
    const [fits, exact, short, big, shared] = (await runAgainstHelper(BUDGET_PROGRAM)) as Run[]
    // Breadth-first; the scroll bar is left out and not counted, and its children are never asked for.
    expect(fits).toMatchObject({
      count: 6,
      truncated: false,
      kept: ['win(toolbar(toolbar.0 toolbar.1) status(status.0))'],
    })
    expect(fits!.askedFor).not.toContain('scrollbar')
    // A tree exactly the budget's size is whole: the leaves are asked and have nothing more.
    expect(exact).toMatchObject({ count: 6, truncated: false })
    expect(short).toMatchObject({
      count: 5,
      truncated: true,
      kept: ['win(toolbar(toolbar.0 toolbar.1) status)'],
    })
    // The grid's rows are fetched one past the budget at most (the one that shows it was cut), the
    // rows' and the status bar's children are never asked for, and what the budget kept comes back.
    expect(big).toMatchObject({ count: 100, truncated: true, asked: 3, askedFor: ['win', 'toolbar', 'grid'] })
    expect(big!.fetched).toBe(3 + 3 + (100 - 1 - 3 - 3) + 1)
    expect(big!.kept[0]).toStartWith('win(toolbar(toolbar.0 toolbar.1 toolbar.2) grid(grid.0 grid.1 ')
    expect(big!.kept[0]).toContain('grid.92)')
    expect(big!.kept[0]).not.toContain('grid.93')
    expect(big!.kept[0]).toEndWith(' status)')
    // The window and its app's dialog share one budget: the dialog gets what is left, then nothing.
    expect(shared).toMatchObject({
      count: 8,
      truncated: true,
      kept: ['win(toolbar(toolbar.0 toolbar.1) status(status.0))', 'dialog(dialog.0)'],
    })
  }, 60_000)

  test('a Win32 or WinForms combo box is sent what pywinauto sends after a selection; other boxes nothing', async () => {
    const result = (await runAgainstHelper(COMBO_PROGRAM)) as Record<string, unknown>
    expect(result.classes).toEqual({
      ComboBox: true,
      'WindowsForms10.COMBOBOX.app.0.141b42a_r6_ad1': true,
      'WindowsForms10.COMBOBOX.app.0.2bf8098_r9_ad1': true,
      TComboBox: true,
      ComboBoxEx32: false,
      Edit: false,
      'WindowsForms10.EDIT.app.0.141b42a_r6_ad1': false,
      combobox: false,
      '': false,
      ComboLBox: false,
    })
    // WM_COMMAND (0x111) to the parent: wParam = MAKEWPARAM(id, code), lParam = the box's handle;
    // CBN_SELENDOK (9), CBN_SELCHANGE (1), CBN_CLOSEUP (8); CB_SETCURSEL (0x14E) first when needed.
    expect(result.dropDownListNotMoved).toEqual([
      'send combo 014E 00000002 0',
      'post parent 0111 000903E9 1234',
      'post parent 0111 000103E9 1234',
      'post parent 0111 000803E9 1234',
    ])
    expect(result.dropDownMoved).toEqual([
      'post parent 0111 000903E9 1234',
      'post parent 0111 000103E9 1234',
      'post parent 0111 000803E9 1234',
    ])
    // A simple box has no list to close: no CBN_CLOSEUP.
    expect(result.simpleNothingSelected).toEqual([
      'send combo 014E 00000000 0',
      'post parent 0111 00090007 1234',
      'post parent 0111 00010007 1234',
    ])
    // Where the box's own item at that place is another text, its selection is not moved.
    expect(result.otherTextThere).toEqual([
      'post parent 0111 000903E9 1234',
      'post parent 0111 000103E9 1234',
      'post parent 0111 000803E9 1234',
    ])
    expect(result.highIdBits).toEqual([
      'post parent 0111 00092345 1234',
      'post parent 0111 00012345 1234',
      'post parent 0111 00082345 1234',
    ])
    expect(result.notACombo).toEqual([])
  }, 60_000)

  test('the exe is a .NET executable with the PerMonitorV2 manifest embedded', () => {
    const exe = readFileSync(HELPER_EXE)
    expect(exe.subarray(0, 2).toString('latin1')).toBe('MZ')
    const text = exe.toString('latin1')
    expect(text).toContain('v4.0.30319')
    expect(text).toContain('PerMonitorV2')
    expect(text).toContain('requestedExecutionLevel level="asInvoker"')
  })
})
