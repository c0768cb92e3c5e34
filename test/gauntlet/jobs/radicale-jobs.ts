// A job a team would want from Radicale: make a shared address book and get its address back.
// The web interface asks to sign in first: the job has stored credentials (job secrets).
import type { Radicale } from '../apps/radicale.ts'
import type { GauntletJob } from '../types.ts'

export const createAddressBook: GauntletJob<Radicale> = {
  app: 'radicale',
  name: 'create an address book, return its address',
  method: 'POST',
  path: '/address-books',
  prompt: 'Create an address book with the given title and return its address',
  secrets: { username: 'office', password: 'not-checked-by-this-radicale' },
  samples: () => [
    {
      input: { title: 'Suppliers', description: 'Vendors we buy from' },
      expect: { address: { $type: 'string' } },
    },
  ],
  live: (radicale) =>
    ['Family', 'Press contacts'].map((title) => ({
      input: { title, description: `${title} list` },
      check: (r) => {
        const made = radicale.collections('office').filter((c) => c.title === title)
        if (made.length !== 1) return `${made.length} collections titled “${title}”, expected 1`
        return String(r.address ?? '').includes(made[0]!.id)
          ? undefined
          : `returned ${JSON.stringify(r)}, expected the address of collection ${made[0]!.id}`
      },
    })),
}

export const radicaleJobs = [createAddressBook]
