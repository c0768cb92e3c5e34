// The builder on a lookup: no `expect`, so the outputs come from the label/value pairs that
// appear, suggested from the prompt's words and confirmed by the person teaching.
import { describe, expect, test } from 'bun:test'
import { buildAutomation } from '../../src/builder/index.ts'
import { localDesktop } from '../helpers/local-desktop.ts'
import { crmBrowser } from './crm-harness.ts'
import { optionsStartingWith, scriptedIO } from './scripted-io.ts'

const crm = crmBrowser()

const PROMPT = 'Find a customer by id and return the name and country'

describe('a lookup build', () => {
  for (const key of ['customerId', 'id']) {
    test(`asks which values to return (sample key “${key}”) and returns them`, async () => {
      const script = scriptedIO([
        { kind: 'choose_outputs', answer: optionsStartingWith('Name:', 'Country:') },
      ])
      const port = localDesktop(crm.driver())
      const result = await buildAutomation(port, script.io, {
        prompt: PROMPT,
        sample: { id: 's1', input: { [key]: 'C-1040' } },
        previous: [],
      })
      if (process.env.BUILDER_TRANSCRIPT) console.log(script.lines.join('\n'))
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      expect(script.unexpected).toEqual([])
      const [asked] = script.questions
      expect(asked?.question).toMatchObject({ kind: 'choose_outputs', multiple: true })
      expect(asked?.question.text).toContain('Name and Country')
      // The prompt's matches come first, then every other pair that appeared, then a way to
      // decline them all and point at the value instead.
      expect(asked?.question.options.map((o) => o.label)).toEqual([
        'Name: Ada Lovelace',
        'Country: United Kingdom',
        'Customer ID: C-1040',
        'Email: ada@example.com',
        'Phone: +44 20 7946 0958',
        'VIP: Yes',
        'None of these (point at it instead)',
      ])
      expect(asked?.question.pointable).toBe(true)
      expect(result.outcome).toBe('success')
      const nav = result.automation.steps.find((s) => s.kind === 'click')
      expect(nav?.name).toBe('Click “Find customer”')

      const run = await port.run(result.automation, { [key]: 'C-1039' })
      expect(run.status).toBe('succeeded')
      expect(run.result).toEqual({ name: 'Grace Hopper', country: 'United States' })
      const ada = await port.run(result.automation, { [key]: 'C-1040' })
      expect(ada.result).toEqual({ name: 'Ada Lovelace', country: 'United Kingdom' })
    }, 60_000)
  }

  test('with exact expected values, reads them without asking', async () => {
    const script = scriptedIO()
    const port = localDesktop(crm.driver())
    const result = await buildAutomation(port, script.io, {
      prompt: 'Look up a customer and return the email and whether they are a VIP',
      sample: {
        id: 's1',
        input: { customerId: 'C-1041' },
        expect: { email: 'jan.devries@example.nl', vip: 'No' },
      },
      previous: [],
    })
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
    expect(script.questions).toEqual([])
    const run = await port.run(result.automation, { customerId: 'C-1040' })
    expect(run.result).toEqual({ email: 'ada@example.com', vip: 'Yes' })
  }, 60_000)
})
