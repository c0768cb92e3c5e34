// Jobs a team would want from fossil's ticket tracker, in the caller's words (not fossil's:
// the caller says "defect", fossil's list says "Code_Defect"; the ticket's id shows only in the
// address and its links).
import type { Fossil } from '../apps/fossil.ts'
import type { GauntletJob } from '../types.ts'

const option = (label: RegExp) => (q: { options: { value: string; label: string }[] }) =>
  q.options.find((o) => label.test(o.label))?.value

export const reportBug: GauntletJob<Fossil> = {
  app: 'fossil',
  name: 'report a bug, return its id',
  method: 'POST',
  path: '/bugs',
  prompt: 'Report a bug in the project tracker and return the ticket id',
  samples: () => [
    {
      input: {
        title: 'Export crashes on an empty file',
        type: 'defect',
        severity: 'Important',
        description: 'Steps: export an empty file.',
      },
      expect: { ticketId: { $type: 'string' } },
    },
  ],
  // Fossil's form sends with Preview first, then Submit: the owner answers Preview.
  answer: (q) => (q.kind === 'choose_submit' ? option(/^preview$/i)(q) : undefined),
  live: (fossil) => [
    {
      input: {
        title: 'Import drops the last line',
        type: 'defect',
        severity: 'Minor',
        description: 'Seen on CSV.',
      },
      check: (r) => createdOnce(fossil, r, 'Import drops the last line', 'Code_Defect'),
    },
    {
      input: {
        title: 'Dark mode for the timeline',
        type: 'feature',
        severity: 'Minor',
        description: 'Please.',
      },
      check: (r) => createdOnce(fossil, r, 'Dark mode for the timeline', 'Feature_Request'),
    },
  ],
}

function createdOnce(
  fossil: Fossil,
  result: Record<string, unknown>,
  title: string,
  type: string,
): string | undefined {
  const id = String(result.ticketId ?? '')
  if (!/^[0-9a-f]{10,40}$/.test(id))
    return `ticketId ${JSON.stringify(result.ticketId)} is no fossil ticket id`
  const found = fossil.tickets().filter((t) => t.title === title)
  if (found.length !== 1) return `${found.length} tickets titled “${title}”, expected exactly 1`
  if (!found[0]!.uuid.startsWith(id))
    return `the ticket created has id ${found[0]!.uuid}, the job returned ${id}`
  if (found[0]!.type !== type) return `the ticket's type is ${found[0]!.type}, expected ${type}`
  return undefined
}

export const ticketStatus: GauntletJob<Fossil> = {
  app: 'fossil',
  name: 'look a ticket up by id',
  method: 'POST',
  path: '/ticket-status',
  prompt: 'Look up a ticket by its id and return its title and status',
  samples: (fossil) => {
    const id = fossil.addTicket('Search ignores accents')
    return [{ input: { ticketId: id }, expect: { title: 'Search ignores accents', status: 'Open' } }]
  },
  live: (fossil) =>
    ['Login form forgets the user', 'Typo on the download page'].map((title) => {
      const id = fossil.addTicket(title)
      return {
        input: { ticketId: id },
        check: (r) =>
          r.title === title && r.status === 'Open'
            ? undefined
            : `returned ${JSON.stringify(r)}, expected title “${title}” and status Open`,
      }
    }),
}

/** Change-by-value: the ticket is found by its id and closed with a resolution, in the caller's words. */
export const closeTicket: GauntletJob<Fossil> = {
  app: 'fossil',
  name: 'close a ticket with a resolution',
  method: 'POST',
  path: '/tickets/close',
  prompt: 'Close the ticket with the given id and set its resolution',
  samples: (fossil) => {
    const id = fossil.addTicket('Spinner never stops on a slow network')
    return [{ input: { ticketId: id, status: 'closed', resolution: 'fixed' } }]
  },
  // Fossil's edit form sends with Preview first, then Submit, as the new-ticket form does.
  answer: (q) => (q.kind === 'choose_submit' ? option(/^(preview|submit)$/i)(q) : undefined),
  live: (fossil) =>
    [
      ['Crash when the disk is full', 'fixed'],
      ['Logo is blurry on retina screens', 'not a bug'],
    ].map(([title, resolution]) => {
      const id = fossil.addTicket(title!)
      const other = fossil.addTicket(`${title} (unrelated)`)
      return {
        input: { ticketId: id, status: 'closed', resolution },
        check: () => {
          const tickets = fossil.tickets()
          const t = tickets.find((x) => x.uuid === id)
          if (t?.status !== 'Closed') return `ticket “${title}” has status ${t?.status}, expected Closed`
          const untouched = tickets.find((x) => x.uuid === other)
          return untouched?.status === 'Open'
            ? undefined
            : `another ticket changed: ${JSON.stringify(untouched)}`
        },
      }
    }),
}

export const fossilJobs = [reportBug, ticketStatus, closeTicket]
