// Item 10 of issue 8: options by meaning. A sample value is matched to the option that means it;
// one plausible option is used and remembered as a valueMap entry, several or none are asked about
// (map_option), and the answer becomes the valueMap for live calls. Never the first option silently.
import { describe, expect, test } from 'bun:test'
import type { BuildRequest, DesktopPort } from '../../../src/builder/contract.ts'
import { matchOption } from '../../../src/builder/map/option-match.ts'
import { learnOptionWord } from '../../../src/builder/map/option-value-map.ts'
import { BuildSession } from '../../../src/builder/session.ts'
import { optionLabelled, type Reply, scriptedIO } from '../scripted-io.ts'
import { mapOn, recorded, stepFor } from './helpers.ts'

const FOSSIL_TYPES = ['Code_Defect', 'Build_Problem', 'Documentation', 'Feature_Request', 'Incident']
const COUNTRIES = ['Österreich', 'France', 'United Kingdom', 'United States', 'Germany']

describe('matching a word to the option that means it', () => {
  test('exact label first, without case, accents or separators', () => {
    expect(matchOption('code defect', FOSSIL_TYPES)).toEqual({ kind: 'exact', option: 'Code_Defect' })
    expect(matchOption('OSTERREICH', COUNTRIES)).toEqual({ kind: 'exact', option: 'Österreich' })
  })

  test('then a shared word stem: defect ↔ Code_Defect, feature ↔ Feature_Request, docs ↔ Documentation', () => {
    expect(matchOption('defect', FOSSIL_TYPES)).toMatchObject({ kind: 'meaning', option: 'Code_Defect' })
    expect(matchOption('features', FOSSIL_TYPES)).toMatchObject({
      kind: 'meaning',
      option: 'Feature_Request',
    })
    expect(matchOption('docs', FOSSIL_TYPES)).toMatchObject({ kind: 'meaning', option: 'Documentation' })
    expect(matchOption('build', FOSSIL_TYPES)).toMatchObject({ kind: 'meaning', option: 'Build_Problem' })
  })

  test('then initials and prefixes: UK ↔ United Kingdom, Ger ↔ Germany', () => {
    expect(matchOption('UK', COUNTRIES)).toMatchObject({ kind: 'meaning', option: 'United Kingdom' })
    expect(matchOption('Ger', COUNTRIES)).toMatchObject({ kind: 'meaning', option: 'Germany' })
  })

  test('a synonym no overlap finds, or several plausible options, are a question', () => {
    expect(matchOption('ticket', ['issue', 'task', 'epic'])).toEqual({ kind: 'ask', plausible: [] })
    expect(matchOption('united', COUNTRIES)).toEqual({
      kind: 'ask',
      plausible: ['United Kingdom', 'United States'],
    })
    expect(matchOption('problem', ['Build_Problem', 'Network_Problem'])).toMatchObject({ kind: 'ask' })
  })
})

describe('options on fossil’s new-ticket form', () => {
  test('“defect” chooses Code_Defect without a question, and the mapping is kept for live calls', async () => {
    const mapped = await mapOn('fossil-tktnew', { title: 'Crash on save', type: 'defect' })
    expect(mapped.transcript.questions).toEqual([])
    expect(stepFor(mapped, 'type')).toMatchObject({
      kind: 'select',
      name: 'Choose “Type”',
      value: '{{type}}',
      valueMap: { defect: 'Code_Defect' },
    })
    expect(mapped.transcript.lines).toContain(
      '[map] “defect” means “Code_Defect” in “Type” (they share the word “defect”)',
    )
  })

  test('“bug” means nothing fossil lists: asked with every option and “None of these”; the answer is the map', async () => {
    const mapped = await mapOn('fossil-tktnew', { title: 'Crash', type: 'bug' }, [
      { kind: 'map_option', answer: optionLabelled('Code_Defect') },
    ])
    const [asked] = mapped.transcript.questions
    expect(asked!.question).toMatchObject({
      kind: 'map_option',
      text: '“Type” has no option called “bug” (the value of “type”). Which option means “bug”?',
      multiple: false,
    })
    expect(asked!.question.options.map((o) => o.label)).toEqual([...FOSSIL_TYPES, 'None of these'])
    expect(stepFor(mapped, 'type')).toMatchObject({ kind: 'select', valueMap: { bug: 'Code_Defect' } })
    expect(mapped.transcript.lines).toContain('[map] “bug” means “Code_Defect” in “Type”, as answered')
  })

  test('two plausible options: only they are offered, with “None of these”', async () => {
    const mapped = await mapOn('profile-form', { country: 'united' }, [
      { kind: 'map_option', answer: optionLabelled('United States') },
    ])
    expect(mapped.transcript.questions[0]!.question.options.map((o) => o.label)).toEqual([
      'United Kingdom',
      'United States',
      'None of these',
    ])
    expect(stepFor(mapped, 'country')).toMatchObject({ valueMap: { united: 'United States' } })
  })

  test('“None of these” leaves the value out of the list rather than picking one', async () => {
    const mapped = await mapOn('fossil-tktnew', { title: 'Crash', type: 'ticket' }, [
      { kind: 'map_option', answer: optionLabelled('None of these') },
    ])
    expect(mapped.steps.map((s) => s.step.name)).not.toContain('Choose “Type”')
    expect(mapped.transcript.lines).toContain(
      '[map] No option of “Type” means “ticket”, as answered: “type” is not used there',
    )
  })

  test('a radio group’s options are matched the same way, the map on the check step', async () => {
    const mapped = await mapOn('profile-form', { newsletter: 'yes please' }, [
      { kind: 'map_option', answer: optionLabelled('Yes') },
    ])
    expect(stepFor(mapped, 'newsletter')).toMatchObject({
      kind: 'check',
      target: { fingerprints: [{ by: 'role', role: 'radio', name: '{{newsletter}}' }] },
      valueMap: { 'yes please': 'Yes' },
    })
  })

  test('a list of values (multi-select) maps each of them', async () => {
    const mapped = await mapOn('profile-form', { country: ['uk', 'france'] })
    expect(stepFor(mapped, 'country')).toMatchObject({ kind: 'select', valueMap: { uk: 'United Kingdom' } })
  })
})

describe('options on fossil’s ticket editor', () => {
  const RESOLUTIONS = [
    'Open',
    'Fixed',
    'Rejected',
    'Workaround',
    'Unable_To_Reproduce',
    'Works_As_Designed',
    'External_Bug',
    'Not_A_Bug',
    'Duplicate',
    'Overcome_By_Events',
    'Drive_By_Patch',
    'Misconfiguration',
  ]

  test('“not a bug” is Not_A_Bug and “closed” is Closed, with no question', async () => {
    const mapped = await mapOn('fossil-tktedit', { status: 'closed', resolution: 'not a bug' })
    expect(mapped.transcript.questions).toEqual([])
    expect(stepFor(mapped, 'status')).not.toHaveProperty('valueMap')
    expect(stepFor(mapped, 'resolution')).toMatchObject({ valueMap: { 'not a bug': 'Not_A_Bug' } })
  })

  test('“bug” could be External_Bug or Not_A_Bug: both offered, never the first taken', async () => {
    const mapped = await mapOn('fossil-tktedit', { resolution: 'bug' }, [
      { kind: 'map_option', answer: optionLabelled('External_Bug') },
    ])
    const asked = mapped.transcript.questions[0]!.question
    expect(asked.options.map((o) => o.label)).toEqual(['External_Bug', 'Not_A_Bug', 'None of these'])
    expect(mapped.transcript.lines).toContain(
      '[map] Which option of “Resolution” means “bug”? (it could be “External_Bug”, “Not_A_Bug”); asking',
    )
    expect(stepFor(mapped, 'resolution')).toMatchObject({ valueMap: { bug: 'External_Bug' } })
  })

  test('“wontfix” is no word fossil uses: every resolution is offered', async () => {
    const mapped = await mapOn('fossil-tktedit', { resolution: 'wontfix' }, [
      { kind: 'map_option', answer: optionLabelled('Rejected') },
    ])
    expect(mapped.transcript.questions[0]!.question.options.map((o) => o.label)).toEqual([
      ...RESOLUTIONS,
      'None of these',
    ])
    expect(stepFor(mapped, 'resolution')).toMatchObject({ valueMap: { wontfix: 'Rejected' } })
  })

  test('an empty native list (fossil’s Subsystem) takes nothing and is not offered', async () => {
    const mapped = await mapOn('fossil-tktedit', { status: 'Open', subsystem: 'ui' }, [
      { kind: 'map_field', answer: optionLabelled('Nowhere: leave it out') },
    ])
    const asked = mapped.transcript.questions[0]!.question
    expect(asked.options.map((o) => o.label)).not.toContain('Subsystem')
    expect(mapped.steps.map((s) => s.leaf?.path)).toEqual(['status'])
  })
})

describe('a later sample brings a word the step has not met', () => {
  const session = (replies: Reply[] = []) => {
    const transcript = scriptedIO(replies)
    const request: BuildRequest = { prompt: '', sample: { id: 's2', input: {} }, previous: [] }
    return { transcript, session: new BuildSession({ name: 'none' } as DesktopPort, transcript.io, request) }
  }

  test('the step learns the new word (by meaning, or as answered) into its valueMap', async () => {
    const first = await mapOn('fossil-tktnew', { title: 'Crash', type: 'defect' })
    const step = stepFor(first, 'type')
    const { root } = await recorded('fossil-tktnew')

    const quiet = session()
    expect(await learnOptionWord(quiet.session, root, step, { type: 'Defect' })).toBeUndefined()
    const learnt = await learnOptionWord(quiet.session, root, step, { type: 'feature' })
    expect(learnt).toMatchObject({ valueMap: { defect: 'Code_Defect', feature: 'Feature_Request' } })
    expect(quiet.transcript.questions).toEqual([])

    const asking = session([{ kind: 'map_option', answer: optionLabelled('Incident') }])
    const answered = await learnOptionWord(asking.session, root, learnt!, { type: 'outage' })
    expect(answered).toMatchObject({
      valueMap: { defect: 'Code_Defect', feature: 'Feature_Request', outage: 'Incident' },
    })
    expect(asking.transcript.questions[0]!.question.kind).toBe('map_option')
  })

  test('a yes/no radio step and an unrelated step learn nothing', async () => {
    const { root } = await recorded('profile-form')
    const mapped = await mapOn('profile-form', { fullname: 'Ann', newsletter: true })
    const { session: quiet } = session()
    expect(
      await learnOptionWord(quiet, root, stepFor(mapped, 'newsletter'), { newsletter: 'no' }),
    ).toBeUndefined()
    expect(
      await learnOptionWord(quiet, root, stepFor(mapped, 'fullname'), { fullname: 'Bo' }),
    ).toBeUndefined()
  })
})

describe('options on Adminer’s sign-in form (a database admin UI)', () => {
  test('the row headers name the boxes; “postgres” is PostgreSQL, “sqlite” is asked between SQLite 3 and 2', async () => {
    const quiet = await mapOn('adminer-login', { system: 'postgres', server: 'db.local', user: 'root' })
    expect(quiet.transcript.questions).toEqual([])
    expect(stepFor(quiet, 'system')).toMatchObject({ valueMap: { postgres: 'PostgreSQL' } })
    expect(stepFor(quiet, 'server')).toMatchObject({ kind: 'fill' })
    expect(stepFor(quiet, 'user')).toMatchObject({ name: 'Fill “Username”' })

    const asked = await mapOn('adminer-login', { system: 'sqlite' }, [
      { kind: 'map_option', answer: optionLabelled('SQLite 3') },
    ])
    expect(asked.transcript.questions[0]!.question.options.map((o) => o.label)).toEqual([
      'SQLite 3',
      'SQLite 2',
      'None of these',
    ])
    expect(stepFor(asked, 'system')).toMatchObject({ valueMap: { sqlite: 'SQLite 3' } })
  })

  test('a language in English is no word of a list of native names: all of them are offered', async () => {
    const mapped = await mapOn('adminer-login', { language: 'german' }, [
      { kind: 'map_option', answer: optionLabelled('Deutsch') },
    ])
    const offered = mapped.transcript.questions[0]!.question.options.map((o) => o.label)
    expect(offered).toContain('Deutsch')
    expect(offered).toContain('Français')
    expect(offered.at(-1)).toBe('None of these')
    expect(stepFor(mapped, 'language')).toMatchObject({ valueMap: { german: 'Deutsch' } })
    // Spelled without its accents, a native name is the option itself.
    const plain = await mapOn('adminer-login', { language: 'cestina' })
    expect(plain.transcript.questions).toEqual([])
    expect(stepFor(plain, 'language')).not.toHaveProperty('valueMap')
  })
})
