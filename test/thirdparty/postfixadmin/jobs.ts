// Jobs a mail admin would want from PostfixAdmin, in the caller's words: open a new email account
// for someone at example.org; list the email accounts of a domain. Checked in the app's database
// (the stored account, its hashed password) and against the accounts each domain really has.
import { NONE_OF_THESE } from '../../../src/protocol/questions.ts'
import type { GauntletJob } from '../../gauntlet/types.ts'
import type { PostfixAdmin } from './app.ts'

const SECRETS = { username: 'admin@example.org', password: 'Mailadmin2026' }

const option = (label: RegExp) => (q: { options: { value: string; label: string }[] }) =>
  q.options.find((o) => label.test(o.label))?.value

export const createMailbox: GauntletJob<PostfixAdmin> = {
  app: 'postfixadmin',
  name: 'create a mailbox in example.org',
  method: 'POST',
  path: '/mailboxes',
  prompt:
    "Create a new email account in the example.org domain for a person, from the address's local part (before the @), their full name and the account's password, and return the new email address",
  secrets: SECRETS,
  samples: () => [
    {
      input: { localPart: 'carol', name: 'Carol Chen', password: 'Carol2026mail' },
      expect: { address: 'carol@example.org' },
    },
  ],
  // The form's button is "Add Mailbox". Asked where a value goes, the owner names the field they
  // know for it: the local part is the "Username", the person's name "Name", the password "Password".
  answer: (q) => {
    if (q.kind === 'choose_submit') return option(/add mailbox/i)(q)
    if (q.kind !== 'map_field') return undefined
    const key = /value of “([^”]+)”/.exec(q.text)?.[1] ?? ''
    const field = { localPart: /user ?name/i, name: /^name/i, password: /^password$/i }[key]
    return (field && option(field)(q)) ?? NONE_OF_THESE
  },
  live: (app) =>
    [
      ['dmitri', 'Dmitri Ivanov', 'Dmitri2026mail'],
      ['fatima', 'Fatima Zahra', 'Fatima2026mail'],
    ].map(([localPart, name, password]) => ({
      input: { localPart, name, password },
      check: (r) => {
        const address = `${localPart}@example.org`
        const box = app.mailboxes().find((m) => m.username === address)
        if (!box)
          return `no mailbox ${address}: ${app
            .mailboxes()
            .map((m) => m.username)
            .join(', ')}`
        if (box.name !== name || box.domain !== 'example.org' || box.local_part !== localPart)
          return `the mailbox is ${JSON.stringify(box)}, expected ${name} at example.org`
        if (!box.active) return `the mailbox ${address} is not active`
        if (!app.passwordMatches(address, password!)) return `the mailbox ${address} has another password`
        return r.address === address
          ? undefined
          : `returned ${JSON.stringify(r).slice(0, 200)}, expected address ${address}`
      },
    })),
}

export const listMailboxes: GauntletJob<PostfixAdmin> = {
  app: 'postfixadmin',
  name: 'list the mailboxes of a domain',
  method: 'GET',
  path: '/mailboxes',
  prompt: 'List the email accounts of the given domain and return their addresses as a list',
  secrets: SECRETS,
  samples: (app) => {
    app.addDomain('example.net', 'Example Net')
    app.addMailbox('dora@example.net', 'Dora Dean', 'Dora2026mail')
    app.addMailbox('emil@example.net', 'Emil Eckert', 'Emil2026mail')
    app.addMailbox('frank@example.org', 'Frank Fisher', 'Frank2026mail')
    return [{ input: { domain: 'example.net' }, expect: { mailboxes: { $type: 'array' } } }]
  },
  // The domain picker above the list is sent with "Go". Asked to show how, the owner opens the
  // Virtual List from the menu bar and picks the sample's domain.
  answer: (q) =>
    q.kind === 'choose_submit'
      ? option(/^go$/i)(q)
      : q.kind === 'demonstrate'
        ? {
            show: [
              { click: (e) => e.role === 'button' && e.name === 'Virtual List' },
              { click: (e) => e.role === 'link' && e.name === 'Virtual List' },
              { choose: 'example.net', in: (e) => e.role === 'combobox' && /^example\./.test(e.value ?? '') },
            ],
          }
        : undefined,
  live: (app) => {
    app.addDomain('example.com', 'Example Com')
    app.addMailbox('gina@example.com', 'Gina Gold', 'Gina2026mail')
    app.addMailbox('hank@example.com', 'Hank Hill', 'Hank2026mail')
    app.addMailbox('ivy@example.com', 'Ivy Ingram', 'Ivy2026mail')
    const before = JSON.stringify(app.mailboxes())
    return [
      { domain: 'example.com', not: ['dora@example.net', 'frank@example.org'] },
      { domain: 'example.org', not: ['gina@example.com', 'emil@example.net'] },
    ].map(({ domain, not }) => ({
      input: { domain },
      check: (r) => {
        // What the domain really holds (example.org also has the accounts other jobs made).
        const want = app.mailboxes(domain).map((m) => m.username)
        if (want.length < 2) return `harness: ${domain} has ${want.length} mailboxes`
        if (JSON.stringify(app.mailboxes()) !== before) return 'listing changed the mailboxes'
        return listOf(r, want, not)
      },
    }))
  },
}

export const postfixAdminJobs = [createMailbox, listMailboxes]

function listOf(result: Record<string, unknown>, want: string[], not: string[]): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list).toLowerCase()
  const missing = want.filter((w) => !text.includes(w))
  const extra = not.filter((w) => text.includes(w))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${text.slice(0, 200)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}`
  return undefined
}
