/**
 * The forms a secret commonly takes when an app or a page copies it somewhere: Base64 and
 * Base64url (also as a slice of a longer blob, e.g. `Basic base64(user:password)`), URL encoding
 * (`encodeURIComponent`, every reserved byte escaped, form encoding with `+`) and hex. Matched
 * case-insensitively, which also covers an upper- or lower-cased copy and lower-case `%xx`/hex.
 *
 * Care for short secrets: a form shorter than MIN_FORM_LENGTH characters would match by chance
 * inside unrelated text (a 2-digit PIN's Base64 is 2–3 characters), so it is left out; the value
 * itself is still masked exactly, as before.
 */
export const MIN_FORM_LENGTH = 6

/**
 * The Base64 characters that depend only on the secret's bytes, for each of the three byte
 * offsets the secret may start at inside a longer encoded blob: present in any Base64 text that
 * encodes the secret, whatever comes before or after it.
 */
function base64Slices(bytes: Buffer): string[] {
  const out: string[] = []
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes, Buffer.alloc(2)]).toString('base64')
    // Character c holds bits [6c, 6c + 6): keep those that lie within the secret's bits.
    const start = Math.ceil((8 * k) / 6)
    const end = Math.floor((8 * (k + bytes.length)) / 6)
    if (end > start) out.push(encoded.slice(start, end))
  }
  return out
}

/** Percent-encodes every byte outside RFC 3986's unreserved set (stricter than encodeURIComponent). */
function percentEncodeAll(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('')
}

/** The secret's encoded forms (not the value itself), each at least MIN_FORM_LENGTH long. */
export function secretForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8')
  const forms = new Set<string>()
  for (const slice of base64Slices(bytes)) {
    forms.add(slice)
    forms.add(slice.replaceAll('+', '-').replaceAll('/', '_'))
  }
  const uri = encodeURIComponent(value)
  const strict = percentEncodeAll(value)
  for (const encoded of [uri, strict]) {
    forms.add(encoded)
    forms.add(encoded.replaceAll('%20', '+'))
  }
  forms.add(bytes.toString('hex'))
  forms.delete(value)
  return [...forms].filter((f) => f.length >= MIN_FORM_LENGTH)
}
