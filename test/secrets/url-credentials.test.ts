import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { failBuild } from '../../src/modules/builds/lifecycle.ts'
import { askQuestion, getBuild, recordProgress } from '../../src/modules/builds/service.ts'
import { maskUrlCredentials, maskUrlCredentialsIn } from '../../src/modules/secrets/url-credentials.ts'
import { startTestServer, type TestServer, teachBody } from '../helpers/test-server.ts'

describe('maskUrlCredentials', () => {
  test.each([
    ['https://app.example/feed.atom?key=abc123', 'https://app.example/feed.atom?key=***'],
    ['/issues.atom?KEY=abc&page=2', '/issues.atom?KEY=***&page=2'],
    ['x?a=1&Token=t0k&b=2', 'x?a=1&Token=***&b=2'],
    ['/s;sid=5F3A?session=99', '/s;sid=***?session=***'],
    ['cb#access_token=ya29.a0&state=x', 'cb#access_token=***&state=x'],
    [
      '?auth=1&apikey=2&api_key=3&password=4&passwd=5',
      '?auth=***&apikey=***&api_key=***&password=***&passwd=***',
    ],
    [
      'Opened https://h/x?key=k1 and "https://h/y?token=t1".',
      'Opened https://h/x?key=*** and "https://h/y?token=***".',
    ],
  ])('%s', (text, masked) => expect(maskUrlCredentials(text)).toBe(masked))

  test('other parameters and look-alikes are left alone', () => {
    for (const text of ['?monkey=1', '?keyword=crash', '?token_type=bearer', 'key=value in prose', '?id=5'])
      expect(maskUrlCredentials(text)).toBe(text)
  })

  test('deep, in strings only; an unchanged value is the same object', () => {
    const clean = { a: ['x'], b: { c: 'y' } }
    expect(maskUrlCredentialsIn(clean)).toBe(clean)
    expect(maskUrlCredentialsIn({ url: '/f?key=1', n: 2, list: ['?sid=2'] })).toEqual({
      url: '/f?key=***',
      n: 2,
      list: ['?sid=***'],
    })
  })
})

describe('what a build writes', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startTestServer()
  })
  afterAll(() => s.close())

  test('progress (message and data), questions and the failure mask credentials in URLs', async () => {
    const res = await s.call('/feeds', { method: 'POST', json: teachBody({ prompt: 'Read the feed' }) })
    const { buildId } = await res.json()
    recordProgress(s.ctx, buildId, {
      stage: 'explore',
      message: 'Opened https://tracker.example/issues.atom?key=9f8e7d6c5b4a',
      data: { url: 'https://tracker.example/issues.atom?key=9f8e7d6c5b4a' },
    })
    askQuestion(s.ctx, buildId, {
      kind: 'choose_outputs',
      text: 'Which of these (from /feed?token=tk-777)?',
      options: [{ value: 'feed', label: 'https://tracker.example/f?session=s-1' }],
      multiple: true,
    })
    failBuild(s.ctx, buildId, { code: 'NO_OUTCOME', message: 'Nothing changed at /feed?key=9f8e7d6c5b4a' })
    const stored = JSON.stringify(getBuild(s.ctx, buildId))
    for (const secret of ['9f8e7d6c5b4a', 'tk-777', 's-1']) expect(stored).not.toContain(secret)
    expect(stored).toContain('issues.atom?key=***')
    const shown = await (await s.call(`/_builds/${buildId}`)).json()
    expect(shown.error.message).toBe('Nothing changed at /feed?key=***')
  })
})
