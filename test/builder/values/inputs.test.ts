// Item 3 of issue 8: the inputs are the caller's values. Request headers are transport and never
// candidates, unless the prompt or the sample's `expect` names one.
import { describe, expect, test } from 'bun:test'
import { headerNamed, inputLeaves, unusableKeys } from '../../../src/builder/input-leaves.ts'
import { screenFitness } from '../../../src/builder/map/field-scores.ts'
import { readControls } from '../../../src/builder/screen.ts'
import { optionLabelled } from '../scripted-io.ts'
import { mapOn, recorded, stepFor } from './helpers.ts'

/** What a live call (and so a sample) carries besides the caller's own values. */
const transport = {
  accept: '*/*',
  'user-agent': 'curl/8.5.0',
  'content-length': '27',
  'content-type': 'application/json',
  host: 'localhost:7070',
  'accept-encoding': 'gzip',
  'x-api-key': 'dh_secret',
}

describe('inputs are only the caller’s values', () => {
  test('body, query and path parameter values are inputs; transport headers, method and path are not', () => {
    const leaves = inputLeaves({
      q: 'fossil',
      page: 2,
      _http: { method: 'GET', path: '/search/7', params: { id: '7' }, headers: transport },
    })
    expect(leaves.map((l) => [l.path, l.source])).toEqual([
      ['q', 'body'],
      ['page', 'body'],
      ['_http.params.id', 'params'],
    ])
  })

  test('a one-field sample fits a one-field screen although the call carried seven headers', async () => {
    const { root } = await recorded('fossil-wikinew')
    const leaves = inputLeaves({ name: 'Release notes', _http: { headers: transport } })
    expect(leaves.map((l) => l.path)).toEqual(['name'])
    expect(screenFitness(leaves, readControls(root))).toBeGreaterThanOrEqual(0.75)
  })

  test('a header the prompt names is an input; one it only mentions as a word is not', () => {
    const input = { title: 'Crash', _http: { headers: { ...transport, 'x-customer-ref': 'C-42' } } }
    const named = inputLeaves(input, {
      prompt: 'File a ticket; use the X-Customer-Ref header as the reference',
    })
    expect(named.map((l) => [l.path, l.source])).toEqual([
      ['title', 'body'],
      ['_http.headers.x-customer-ref', 'header'],
    ])
    // "accept" as a verb is no header; "Accept header" would be.
    expect(headerNamed('accept', { prompt: 'Accept the order and return its number' })).toBe(false)
    expect(headerNamed('accept', { prompt: 'Send the Accept header along as the format' })).toBe(true)
    expect(inputLeaves(input, { prompt: 'File a ticket and return its id' }).map((l) => l.path)).toEqual([
      'title',
    ])
  })

  test('a header the expected output is keyed by is an input; credentials never are', () => {
    const input = { _http: { headers: { ...transport, 'x-request-id': 'r-9' } } }
    expect(inputLeaves(input, { expect: { requestId: 'r-9' } }).map((l) => l.path)).toEqual([
      '_http.headers.x-request-id',
    ])
    expect(
      inputLeaves(input, { prompt: 'Pass the x-api-key header and the Authorization header' }).map(
        (l) => l.path,
      ),
    ).toEqual([])
  })

  test('header names are never reported as unusable keys', () => {
    expect(unusableKeys({ 'first name': 'Ann', _http: { headers: { 'x-weird header': '1' } } })).toEqual([
      'first name',
    ])
  })

  test('mapping never lists transport headers; a named header is placed like any value', async () => {
    const input = {
      title: 'Crash on save',
      _http: { method: 'POST', headers: { ...transport, 'x-reporter': 'ann@example.com' } },
    }
    const quiet = await mapOn('fossil-tktnew', input)
    expect(quiet.transcript.lines.join('\n')).not.toMatch(/user-agent|content-length|accept|host/)
    const named = await mapOn('fossil-tktnew', input, [], {
      prompt: 'File a ticket in fossil; the X-Reporter header is the reporter’s e-mail',
    })
    // The e-mail-shaped header value finds the tracker's only e-mail box.
    expect(stepFor(named, '_http.headers.x-reporter')).toMatchObject({ kind: 'fill', name: 'Fill “EMail”' })
    expect(named.transcript.lines.join('\n')).not.toMatch(/user-agent|content-length/)
  })

  test('a named header that fits no field clearly is asked about, like any value', async () => {
    const mapped = await mapOn(
      'fossil-tktnew',
      { title: 'Crash', _http: { headers: { 'x-build': '2.21' } } },
      [{ kind: 'map_field', answer: optionLabelled('Version') }],
      { prompt: 'File a ticket; the X-Build header says the version' },
    )
    expect(stepFor(mapped, '_http.headers.x-build')).toMatchObject({ name: 'Fill “Version”' })
  })
})
