import { expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../src/config/index.ts'

test('defaults: port 8080, ./data, 1 MiB bodies', () => {
  const c = loadConfig({}, {})
  expect(c.port).toBe(8080)
  expect(c.dataDir.endsWith('/data')).toBe(true)
  expect(c.bodyLimit).toBe(1024 * 1024)
  expect(Object.isFrozen(c)).toBe(true)
})

test('flag > environment > default', () => {
  expect(loadConfig({}, { DESKHOOK_PORT: '9000' }).port).toBe(9000)
  expect(loadConfig({ port: '9100' }, { DESKHOOK_PORT: '9000' }).port).toBe(9100)
  expect(loadConfig({ bodyLimit: '2mb' }, {}).bodyLimit).toBe(2 * 1024 * 1024)
  expect(loadConfig({}, { DESKHOOK_PUBLIC_URL: 'https://dh.corp.local/' }).publicUrl).toBe(
    'https://dh.corp.local',
  )
})

test('every problem is reported at once', () => {
  try {
    loadConfig({ port: '70000' }, { DESKHOOK_LOG_FORMAT: 'xml', DESKHOOK_PUBLIC_URL: 'ftp://x' })
    throw new Error('expected a ConfigError')
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    const problems = (err as ConfigError).problems.join('\n')
    expect(problems).toContain('--port (DESKHOOK_PORT, from --port): must be an integer from 0 to 65535')
    expect(problems).toContain(
      '--log-format (DESKHOOK_LOG_FORMAT, from DESKHOOK_LOG_FORMAT): must be one of auto, json, pretty',
    )
    expect(problems).toContain('--public-url')
  }
})
