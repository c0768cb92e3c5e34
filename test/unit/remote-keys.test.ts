// Keys as a person writes them in a demonstration's input (issue 24: "shift+Right" and "alt+b"
// were refused, so keyboard-driven menus could not be shown).
import { describe, expect, test } from 'bun:test'
import { canonicalKey, remoteKeyProblem } from '../../src/protocol/remote-keys.ts'

describe('remote keys as people write them', () => {
  test('modifiers and named keys in any case, and their common other names, become the contract’s', () => {
    const cases: [string, string][] = [
      ['shift+Right', 'Shift+ArrowRight'],
      ['alt+b', 'Alt+b'],
      ['ctrl+s', 'Ctrl+s'],
      ['Control+A', 'Ctrl+A'],
      ['esc', 'Escape'],
      ['RETURN', 'Enter'],
      ['tab', 'Tab'],
      ['f5', 'F5'],
      ['cmd+option+Del', 'Meta+Alt+Delete'],
      ['+', '+'],
      ['Ctrl++', 'Ctrl++'],
    ]
    for (const [written, canonical] of cases) {
      expect(canonicalKey(written), written).toBe(canonical)
      expect(remoteKeyProblem(canonicalKey(written)), written).toBeUndefined()
    }
  })

  test('what is no key stays as written, for the problem to name it', () => {
    expect(canonicalKey('Hyper+A')).toBe('Hyper+A')
    expect(remoteKeyProblem(canonicalKey('Hyper+A'))).toContain('"Hyper" is no modifier')
    expect(remoteKeyProblem(canonicalKey('F13'))).toContain('must be one of')
  })
})
