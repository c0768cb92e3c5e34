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

/** Change-by-value: the address book is found by its title in the list, then its Edit is used. */
export const describeAddressBook: GauntletJob<Radicale> = {
  app: 'radicale',
  name: 'change the description of the address book with a given title',
  method: 'POST',
  path: '/address-books/describe',
  prompt: 'Edit the address book with the given title and change its description',
  secrets: { username: 'office', password: 'not-checked-by-this-radicale' },
  samples: (radicale) => {
    radicale.putAddressBook('office', 'clients-0001', 'Clients', 'People who buy from us')
    radicale.putAddressBook('office', 'team-0001', 'Team', 'Colleagues')
    return [{ input: { title: 'Clients', description: 'Customers and their contacts' } }]
  },
  live: (radicale) => {
    radicale.putAddressBook('office', 'auditors-0001', 'Auditors', 'External audit firm')
    radicale.putAddressBook('office', 'board-0001', 'Board', 'Board members')
    return [
      ['Auditors', 'Audit firm, yearly review'],
      ['Board', 'Board of directors'],
    ].map(([title, description]) => ({
      input: { title, description },
      check: () => {
        const all = radicale.collections('office')
        const book = all.filter((c) => c.title === title)
        if (book.length !== 1) return `${book.length} address books titled “${title}”, expected 1`
        if (book[0]!.description !== description)
          return `“${title}” has description “${book[0]!.description}”, expected “${description}”`
        const team = all.find((c) => c.id === 'team-0001')
        return team?.description === 'Colleagues'
          ? undefined
          : `another book changed too: ${JSON.stringify(team)}`
      },
    }))
  },
}

export const radicaleJobs = [createAddressBook, describeAddressBook]
