// Item 4 of issue 8, first half: fields are found as users find them — by label, aria-label,
// placeholder, the text just before them, their column header — and by the value's shape.
// Snapshots: fossil's new-ticket and new-wiki-page forms, and common widget patterns, recorded
// with the real browser driver (snapshots/capture.ts).
import { describe, expect, test } from 'bun:test'
import { inputLeaves } from '../../../src/builder/input-leaves.ts'
import { assignFields } from '../../../src/builder/map/field-scores.ts'
import { readControls } from '../../../src/builder/screen.ts'
import { mapOn, recorded, stepFor } from './helpers.ts'

const labels = async (name: Parameters<typeof recorded>[0]) =>
  readControls((await recorded(name)).root).map((c) => `${c.kind}:${c.label}`)

describe('fields are named the way a person reads the screen', () => {
  test('fossil’s ticket form: boxes with no label of their own are named by the text before them', async () => {
    expect(await labels('fossil-tktnew')).toEqual([
      'text:Enter a one-line summary of the ticket',
      'select:Type',
      'text:Version',
      'select:Severity',
      'text:EMail',
      'select:Format',
      'text:Enter a detailed description of the problem',
    ])
    // "Markup style" is a link followed by ":" — still the caption of the list after it.
    expect(await labels('fossil-wikinew')).toEqual(['text:Name of new wiki page', 'select:Markup style'])
  })

  test('a ticket sample in the caller’s words finds every fossil field, none asked about', async () => {
    const mapped = await mapOn('fossil-tktnew', {
      title: 'Crash on save',
      severity: 'critical',
      email: 'ann@example.com',
      description: 'It crashes.',
    })
    expect(mapped.transcript.questions).toEqual([])
    expect(stepFor(mapped, 'title')).toMatchObject({ kind: 'fill', value: '{{title}}' })
    expect(stepFor(mapped, 'severity')).toMatchObject({ kind: 'select', name: 'Choose “Severity”' })
    expect(stepFor(mapped, 'email')).toMatchObject({ name: 'Fill “EMail”' })
    expect(stepFor(mapped, 'description')).toMatchObject({
      name: 'Fill “Enter a detailed description of the problem”',
    })
    // Progress says why, in the app's words.
    expect(mapped.transcript.lines).toContain(
      '[map] “email” goes into “EMail”: the text before it, “EMail” (match 1.00)',
    )
  })

  test('a search box labelled only by its placeholder is where q goes', async () => {
    const mapped = await mapOn('picker-and-search', { q: 'blue widgets' })
    expect(stepFor(mapped, 'q')).toMatchObject({
      kind: 'fill',
      name: 'Fill “Search orders…”',
      value: '{{q}}',
    })
    expect(mapped.transcript.lines[0]).toBe(
      '[map] “q” goes into “Search orders…”: the search box (match 0.90)',
    )
    for (const key of ['query', 'term', 'search']) {
      const { steps } = await mapOn('picker-and-search', { [key]: 'blue widgets' })
      expect(steps.map((s) => s.step.name)).toEqual(['Fill “Search orders…”'])
    }
  })

  test('DokuWiki’s search box: named “[F]” by its title, found by its placeholder, never by the “Log In” link before it', async () => {
    expect(await labels('dokuwiki-start')).toEqual(['text:Search'])
    for (const key of ['q', 'query', 'term']) {
      const mapped = await mapOn('dokuwiki-start', { [key]: 'install' })
      expect(mapped.transcript.questions).toEqual([])
      expect(stepFor(mapped, key)).toMatchObject({ kind: 'fill', name: 'Fill “Search”', value: `{{${key}}}` })
    }
  })

  test('boxes in a table are named by their column header', async () => {
    expect(await labels('combobox-and-grid')).toEqual([
      'select:Assignee',
      'text:Task',
      'text:Hours',
      'date:Due',
    ])
    const mapped = await mapOn('combobox-and-grid', { task: 'Review', hours: 3, due: '2025-02-01' })
    expect(stepFor(mapped, 'task')).toMatchObject({ name: 'Fill “Task”' })
    expect(stepFor(mapped, 'hours')).toMatchObject({ name: 'Fill “Hours”' })
    expect(stepFor(mapped, 'due')).toMatchObject({ name: 'Fill “Due”', value: '{{due}}' })
    expect(mapped.transcript.lines).toContain(
      '[map] “hours” goes into “Hours”: its column “Hours” (match 1.00)',
    )
  })

  test('a form laid out as a table names each box by its row (phpLiteAdmin: field | type | operator | value)', async () => {
    const mapped = await mapOn('phpliteadmin-search', { city: 'Paris' })
    expect(mapped.transcript.questions).toEqual([])
    expect(stepFor(mapped, 'city')).toMatchObject({ kind: 'fill', value: '{{city}}' })
    expect(mapped.transcript.lines).toContain('[map] “city” goes into “city”: its row “city” (match 1.00)')
    // The header row's "Value" (a plain cell, not a column header) names no box.
    const other = await mapOn('phpliteadmin-search', { email: 'ada@example.com' })
    expect(other.transcript.lines).toContain('[map] “email” goes into “email”: its row “email” (match 1.00)')
  })

  test('an aria-labelled ARIA combobox is found by its label and chosen by typing', async () => {
    const mapped = await mapOn('combobox-and-grid', { assignee: 'grace hopper' })
    expect(stepFor(mapped, 'assignee')).toMatchObject({
      kind: 'select',
      value: '{{assignee}}',
      target: { fingerprints: [{ by: 'role', role: 'combobox', name: 'Assignee' }, { by: 'path' }] },
    })
  })
})

describe('the value’s shape finds the field when the names do not', () => {
  test('an e-mail goes into the only e-mail box, a date into the only date control', async () => {
    const mapped = await mapOn('picker-and-search', {
      customer: 'Ann',
      replyTo: 'ann@example.com',
      when: '2024-03-12',
    })
    expect(mapped.transcript.questions).toEqual([])
    expect(stepFor(mapped, 'replyTo')).toMatchObject({ name: 'Fill “E-mail address”' })
    expect(stepFor(mapped, 'when')).toMatchObject({ name: 'Fill “Delivery date”' })
    expect(mapped.transcript.lines).toContain(
      '[map] “replyTo” goes into “E-mail address”: the only e-mail field (match 0.85)',
    )
  })

  test('on fossil, a reporter’s e-mail under any key finds the EMail box', async () => {
    const mapped = await mapOn('fossil-tktnew', { title: 'Crash', reporter: 'ann@example.com' })
    expect(stepFor(mapped, 'reporter')).toMatchObject({ name: 'Fill “EMail”' })
  })

  test('a date prefers the date control its key half-names over a box named like the key', async () => {
    const { root } = await recorded('date-parts')
    const { assigned, unsure } = assignFields(
      inputLeaves({ visitor: 'Ann', visit: '2024-03-05' }),
      readControls(root),
    )
    expect(unsure).toEqual([])
    expect(Object.fromEntries(assigned.map((a) => [a.leaf.key, a.control.label]))).toEqual({
      visit: 'Visit date',
      visitor: 'Visitor name',
    })
  })

  test('a number goes into the only spin button; a word is no fit for it', async () => {
    const { root } = await recorded('profile-form')
    const seats = readControls(root).find((c) => c.label === 'Seats')!
    expect(seats.shape).toBe('number')
    const mapped = await mapOn('profile-form', { fullname: 'Ann', places: 2 })
    expect(mapped.transcript.questions).toEqual([])
    expect(stepFor(mapped, 'places')).toMatchObject({ name: 'Fill “Seats”' })
    expect(mapped.transcript.lines).toContain(
      '[map] “places” goes into “Seats”: the only number field (match 0.85)',
    )
    const { unsure } = assignFields(inputLeaves({ places: 'many' }), readControls(root))
    expect(unsure[0]!.candidates.find((c) => c.control.label === 'Seats')?.score ?? 0).toBeLessThan(0.5)
  })
})
