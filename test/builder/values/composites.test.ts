// Item 4 of issue 8, second half: composite controls take one value. A date into a native date
// input (one control, not Chromium's three inner parts), into day/month/year parts in the app's
// own format, or into a date picker's box in the format its hint shows; a boolean into a
// checkbox or a yes/no radio group; a value into a drop-down by label, tolerant of case and accents.
import { describe, expect, test } from 'bun:test'
import { renderTemplate } from '../../../src/automation/templates.ts'
import type { BuildRequest, DesktopPort } from '../../../src/builder/contract.ts'
import { inputLeaves } from '../../../src/builder/input-leaves.ts'
import { mapFields } from '../../../src/builder/map/map-fields.ts'
import { readControls } from '../../../src/builder/screen.ts'
import { BuildSession } from '../../../src/builder/session.ts'
import type { Step } from '../../../src/protocol/automation.ts'
import type { UiElement } from '../../../src/protocol/elements.ts'
import { optionLabelled, scriptedIO } from '../scripted-io.ts'
import { mapOn, recorded, stepFor } from './helpers.ts'

/** What a step writes for this input, rendered by the runner's own templates and filters. */
const written = (step: Step, input: Record<string, unknown>) =>
  renderTemplate('value' in step ? step.value : String((step as { checked: unknown }).checked), input)

describe('dates', () => {
  test('a native date input is one date control, not three spin buttons', async () => {
    const { root } = await recorded('profile-form')
    const controls = readControls(root)
    expect(controls.filter((c) => c.label === 'Date of birth').map((c) => c.kind)).toEqual(['date'])
    // Recorded before the driver said type=date: Chromium's inner Month/Day/Year spin buttons
    // under the input are still read as the one input they belong to.
    const unmarked = readControls((await recorded('profile-form-unmarked-date')).root)
    expect(unmarked.map((c) => `${c.kind}:${c.label}`)).toEqual(controls.map((c) => `${c.kind}:${c.label}`))
    expect(unmarked.some((c) => /^(month|day|year)/i.test(c.label))).toBe(false)
  })

  test('the ISO date fills the native input as one value; a date-time is cut to its day', async () => {
    const input = { born: '1990-04-01' }
    const mapped = await mapOn('profile-form', input)
    const step = stepFor(mapped, 'born')
    expect(step).toMatchObject({ kind: 'fill', name: 'Fill “Date of birth”', value: '{{born}}' })
    // The input itself (#born), where the runner's native date fill sets the ISO value.
    expect('target' in step && step.target?.fingerprints).toContainEqual({
      by: 'automationId',
      ids: ['born'],
    })
    expect(mapped.transcript.lines).toContain(
      '[map] “Date of birth” is a date input: it takes the date as one value',
    )
    const timed = stepFor(await mapOn('profile-form', { born: '1990-04-01T08:30:00Z' }), 'born')
    expect(written(timed, { born: '1990-04-01T08:30:00Z' })).toBe('1990-04-01')
  })

  test('an input the driver marks type=date is one date control, its inner parts ignored', () => {
    const el = (role: UiElement['role'], name: string, extra: Partial<UiElement> = {}): UiElement => ({
      ref: `${role}-${name}`,
      role,
      name,
      states: [],
      children: [],
      ...extra,
    })
    const root = el('window', 'w', {
      children: [
        el('text', 'Start'),
        el('textbox', 'Start', {
          inputType: 'date',
          children: [el('spinbutton', 'Day'), el('spinbutton', 'Month'), el('spinbutton', 'Year')],
        }),
      ],
    })
    expect(readControls(root).map((c) => `${c.kind}:${c.label}`)).toEqual(['date:Start'])
  })

  test('day/month/year lists are one control, written in the app’s format (month names)', async () => {
    const { root } = await recorded('date-parts')
    const visit = readControls(root).find((c) => c.label === 'Visit date')!
    expect(visit.kind).toBe('date-parts')
    expect(visit.parts!.map((p) => `${p.part}:${p.kind}:${p.filter}`)).toEqual([
      'day:select:day',
      'month:select:monthName',
      'year:select:year',
    ])
    const input = { visit: '2024-03-05' }
    const mapped = await mapOn('date-parts', input)
    const steps = mapped.steps.filter((s) => s.leaf?.path === 'visit').map((s) => s.step)
    expect(steps.map((s) => [s.kind, s.name, written(s, input)])).toEqual([
      ['select', 'Choose “Visit date” (day)', '5'],
      ['select', 'Choose “Visit date” (month)', 'March'],
      ['select', 'Choose “Visit date” (year)', '2024'],
    ])
    // Each part is its own target: the day list, the month list, the year list.
    expect(steps.map((s) => ('target' in s ? s.target?.fingerprints[0] : undefined))).toEqual([
      { by: 'role', role: 'combobox', name: 'Day' },
      { by: 'role', role: 'combobox', name: 'Month' },
      { by: 'role', role: 'combobox', name: 'Year' },
    ])
    expect(mapped.transcript.lines).toContain(
      '[map] “Visit date” is a date in 3 parts; “visit” fills them in the app’s format: day “5”, month “March”, year “2024”',
    )
  })

  test('DD / MM / YYYY boxes get two-digit days and months', async () => {
    const input = { expiry: '2027-01-09' }
    const mapped = await mapOn('date-parts', input)
    const steps = mapped.steps.filter((s) => s.leaf?.path === 'expiry').map((s) => s.step)
    expect(steps.map((s) => [s.kind, s.name, written(s, input)])).toEqual([
      ['fill', 'Fill “Expiry” (day)', '09'],
      ['fill', 'Fill “Expiry” (month)', '01'],
      ['fill', 'Fill “Expiry” (year)', '2027'],
    ])
  })

  test('a date picker’s text box is filled in the format its placeholder shows', async () => {
    const input = { deliveryDate: '2024-12-24' }
    const mapped = await mapOn('picker-and-search', input)
    const step = stepFor(mapped, 'deliveryDate')
    expect(step).toMatchObject({
      kind: 'fill',
      name: 'Fill “Delivery date”',
      value: '{{deliveryDate | date:DD/MM/YYYY}}',
    })
    expect(written(step, input)).toBe('24/12/2024')
    expect(mapped.transcript.lines).toContain(
      '[map] “Delivery date” shows the format DD/MM/YYYY: the date is written that way',
    )
  })
})

describe('booleans', () => {
  test('true/false and yes/no go into a checkbox as its ticked state', async () => {
    for (const terms of [true, 'yes', 'no']) {
      const step = stepFor(await mapOn('profile-form', { terms }), 'terms')
      expect(step).toMatchObject({ kind: 'check', name: 'Set “I accept the terms”', checked: '{{terms}}' })
    }
  })

  test('a yes/no radio group takes a boolean through a value map, never by the first radio', async () => {
    for (const newsletter of [false, true, 'no']) {
      const mapped = await mapOn('profile-form', { newsletter })
      expect(stepFor(mapped, 'newsletter')).toEqual({
        kind: 'check',
        name: 'Pick “Subscribe to the newsletter?”',
        optional: true,
        target: {
          fingerprints: [{ by: 'role', role: 'radio', name: '{{newsletter}}', match: 'exact' }],
          description: 'the “Subscribe to the newsletter?” choice',
        },
        checked: true,
        valueMap: { true: 'Yes', false: 'No', yes: 'Yes', no: 'No' },
      })
      expect(mapped.transcript.questions).toEqual([])
    }
  })
})

describe('drop-downs by label, tolerant of case and accents', () => {
  test('“osterreich”, “FRANCE”, “united kingdom” are the options they spell; no map needed, no question', async () => {
    for (const country of ['osterreich', 'FRANCE', 'united kingdom']) {
      const mapped = await mapOn('profile-form', { country })
      expect(stepFor(mapped, 'country')).toMatchObject({ kind: 'select', value: '{{country}}' })
      expect(stepFor(mapped, 'country')).not.toHaveProperty('valueMap')
      expect(mapped.transcript.questions).toEqual([])
    }
  })

  test('a value spelled with other separators is mapped to the option exactly (“code defect” → Code_Defect)', async () => {
    const mapped = await mapOn('fossil-tktnew', { title: 'Crash', type: 'code defect' })
    expect(stepFor(mapped, 'type')).toMatchObject({
      kind: 'select',
      valueMap: { 'code defect': 'Code_Defect' },
    })
  })

  test('the list’s prompt (“Choose…”) is never an option to pick', async () => {
    const { root } = await recorded('profile-form')
    const country = readControls(root).find((c) => c.label === 'Country')!
    const mapped = await mapOn('profile-form', { country: 'Narnia' }, [
      { kind: 'map_option', answer: (q) => q.options.at(-1)!.value },
    ])
    const asked = mapped.transcript.questions[0]!.question
    expect(asked.options.map((o) => o.label)).toEqual([
      ...country.options.filter((o) => o !== 'Choose…'),
      'None of these',
    ])
  })
})

describe('dates not written as ISO', () => {
  test('a date already in the picker’s layout is typed as is', async () => {
    const mapped = await mapOn('picker-and-search', { deliveryDate: '24/12/2024' })
    expect(stepFor(mapped, 'deliveryDate')).toMatchObject({
      name: 'Fill “Delivery date”',
      value: '{{deliveryDate}}',
    })
    expect(mapped.transcript.lines).toContain(
      '[map] “deliveryDate” is already written as “Delivery date” shows dates (DD/MM/YYYY): it is typed as is',
    )
  })

  test('a native date input is not offered a non-ISO date, and the progress says how to send it', async () => {
    const mapped = await mapOn('profile-form', { fullname: 'Ann', born: '01/04/1990' }, [
      { kind: 'map_field', answer: optionLabelled('Nowhere: leave it out') },
    ])
    const asked = mapped.transcript.questions[0]!.question
    expect(asked.options.map((o) => o.label)).not.toContain('Date of birth')
    expect(mapped.transcript.lines).toContain(
      '[map] “born” (“01/04/1990”) is a date not written as YYYY-MM-DD; “Date of birth” takes ISO dates only, so it is not offered. Send it as YYYY-MM-DD',
    )
  })
})

describe('radio groups', () => {
  test('a value spelled without accents picks its radio by the input, never a fixed radio', async () => {
    const el = (role: UiElement['role'], name: string, children: UiElement[] = []): UiElement => ({
      ref: `${role}-${name}`,
      role,
      name,
      states: [],
      children,
    })
    const root = el('window', 'Order', [
      el('group', 'Drink', [el('radio', 'Thé'), el('radio', 'Café'), el('radio', 'Café au lait')]),
    ])
    const transcript = scriptedIO()
    const request: BuildRequest = { prompt: '', sample: { id: 's', input: {} }, previous: [] }
    const session = new BuildSession({ name: 'none' } as DesktopPort, transcript.io, request)
    const [field] = await mapFields(session, root, inputLeaves({ drink: 'cafe' }))
    expect(field!.step).toMatchObject({
      kind: 'check',
      target: { fingerprints: [{ by: 'role', role: 'radio', name: '{{drink}}' }] },
    })
    expect(transcript.questions).toEqual([])
  })
})
