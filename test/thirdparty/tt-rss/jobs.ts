// Jobs a reader would want from their Tiny Tiny RSS (behind its sign-in), in the caller's words:
// subscribe to a feed by its URL into one of their categories; list the unread articles of a feed
// by its name. Checked in tt-rss's database. The feeds are served by the local feed proxy.
import { NONE_OF_THESE, type Question } from '../../../src/protocol/questions.ts'
import { beside, type GauntletJob, hinted, inside, type PointAt } from '../../gauntlet/types.ts'
import { ADMIN, type Article, type TtRss } from './app.ts'

const secrets = { username: ADMIN.username, password: ADMIN.password }

/** The value of the first option whose label matches the first pattern that matches any option. */
const option = (q: Question, ...labels: RegExp[]) => {
  for (const label of labels) {
    const found = q.options.find((o) => label.test(o.label))
    if (found) return found.value
  }
  return undefined
}
/** The caller's input a map_field question is about (“Where should the value of “url” …”). */
const inputOf = (q: Question) => /value of “([^”]+)”/.exec(q.text)?.[1]
/** The caller's word a map_option question is about (“… has no option called “Local” …”). */
const wordOf = (q: Question) => /option called “([^”]+)”/.exec(q.text)?.[1]

/** The owner points at the first element on the screen of one of these roles named like this. */
const pointAt = (roles: RegExp, name: RegExp): PointAt => ({
  pointAt: (e) => roles.test(e.role) && name.test(e.name),
})
const FIELD = /^(textbox|searchbox|combobox|listbox|textarea)$/
const BUTTON = /^(button|link)$/

/**
 * What the owner answers about a form: which field takes an input and which button sends it, by
 * the labels they know; what is not offered, they point at.
 */
function formAnswer(
  q: Question,
  fields: Record<string, RegExp>,
  send: RegExp,
): string | string[] | PointAt | undefined {
  const input = inputOf(q)
  const field = input ? fields[input] : undefined
  if (q.kind === 'choose_submit') return option(q, send) ?? NONE_OF_THESE
  if (q.kind === 'map_field' && field) return option(q, field) ?? NONE_OF_THESE
  if (q.kind === 'point' && field && /^point at the field/i.test(q.text)) return pointAt(FIELD, field)
  if (q.kind === 'point' && /^point at the button/i.test(q.text)) return pointAt(BUTTON, send)
  return undefined
}

/** What the owner answers about the sign-in screen (Login, Password, “Log in”). */
const signInAnswer = (q: Question) =>
  formAnswer(q, { username: /^login|user/i, password: /password/i }, /^log ?in$|sign ?in/i)

/** A feed's articles, newest last, dated in the days before the bench runs. */
function articles(site: string, items: [title: string, slug: string, summary: string][]): Article[] {
  return items.map(([title, slug, summary], i) => ({
    title,
    link: `${site}/${slug}`,
    summary,
    published: new Date(Date.UTC(2026, 10, 10 + i, 8, 30)).toISOString(),
  }))
}

export const subscribe: GauntletJob<TtRss> = {
  app: 'tt-rss',
  name: 'subscribe to a feed by URL into a category',
  method: 'POST',
  path: '/feeds/subscribe',
  prompt: 'Subscribe to a news feed by its URL in my feed reader and put it in the given category',
  secrets,
  samples: (app) => {
    app.publishFeed(
      'http://blog.rustyanchor.example/feed.xml',
      'Rusty Anchor Brewing',
      articles('http://blog.rustyanchor.example', [
        ['Winter stout is back on tap', 'winter-stout', 'Our oatmeal stout returns for the cold months.'],
        [
          'Taproom opening hours over the holidays',
          'holiday-hours',
          'Closed on the 25th, open late on the 31st.',
        ],
      ]),
    )
    return [{ input: { url: 'http://blog.rustyanchor.example/feed.xml', category: 'Local' } }]
  },
  answer: (q) => {
    // Asked to show how: the menu's “Subscribe to feed…”, the URL, the category, “Subscribe”.
    if (q.kind === 'demonstrate')
      return {
        show: [
          { click: (e) => e.role === 'button' && e.name === 'menu' },
          { click: (e) => e.role === 'menuitem' && /^subscribe to feed/i.test(e.name) },
          { type: 'http://blog.rustyanchor.example/feed.xml', into: hinted(/^feed or site url$/i) },
          { click: beside(/^place in category/i, 'listbox') },
          { click: inside('Local', /^Local News Technology/) },
          { click: (e) => e.role === 'button' && e.name === 'Subscribe' },
        ],
      }
    // The sign-in form has “Log in”; the subscribe dialog has “Subscribe”.
    if (q.kind === 'point' && /^point at the button/i.test(q.text))
      return pointAt(BUTTON, /^(subscribe|log ?in)$/i)
    if (q.kind === 'choose_submit')
      return q.options.some((o) => /log ?in/i.test(o.label)) &&
        !q.options.some((o) => /subscribe/i.test(o.label))
        ? signInAnswer(q)
        : formAnswer(q, {}, /subscribe/i)
    if (['url', 'category'].includes(inputOf(q) ?? ''))
      return formAnswer(q, { url: /url|feed/i, category: /categor/i }, /subscribe/i)
    if (q.kind === 'map_option') {
      const word = wordOf(q)?.toLowerCase()
      return q.options.find((o) => o.label.toLowerCase() === word)?.value
    }
    return signInAnswer(q)
  },
  live: (app) => {
    app.publishFeed(
      'http://www.greenvalleygardens.example/news/rss',
      'Green Valley Gardens',
      articles('http://www.greenvalleygardens.example/news', [
        ['Seed swap this Saturday', 'seed-swap', 'Bring your spare seeds to the greenhouse.'],
        ['Pruning fruit trees in late autumn', 'pruning', 'A short guide for apple and pear trees.'],
      ]),
    )
    app.publishFeed(
      'http://devnotes.quarkdb.example/atom.xml',
      'QuarkDB Dev Notes',
      articles('http://devnotes.quarkdb.example/posts', [
        ['Release 4.2 adds incremental backups', 'release-4-2', 'Backups now copy only changed pages.'],
        ['How we cut query latency by a third', 'latency', 'Notes on the new planner.'],
      ]),
      true,
    )
    return [
      { url: 'http://www.greenvalleygardens.example/news/rss', category: 'Local' },
      { url: 'http://devnotes.quarkdb.example/atom.xml', category: 'Technology' },
    ].map((want) => ({
      input: want,
      check: (r) => {
        if ('error' in r) return `the call answered an error: ${JSON.stringify(r).slice(0, 200)}`
        const same = (a: string) => a.replace(/\/$/, '') === want.url.replace(/\/$/, '')
        const found = app.feeds().filter((f) => same(f.feedUrl))
        if (found.length !== 1) return `${found.length} subscriptions to ${want.url}, expected 1`
        return found[0]!.category === want.category
          ? undefined
          : `${want.url} is in category ${JSON.stringify(found[0]!.category)}, expected ${want.category}`
      },
    }))
  },
}

export const unreadTitles: GauntletJob<TtRss> = {
  app: 'tt-rss',
  name: 'list the unread article titles of a feed',
  method: 'GET',
  path: '/feeds/unread',
  prompt: 'List the titles of the unread articles of a feed in my feed reader, given the name of the feed',
  secrets,
  samples: (app) => {
    seedFeed(
      app,
      'http://news.harbortown.example/rss.xml',
      'Harbor Town News',
      'Local',
      articles('http://news.harbortown.example/stories', [
        [
          'Lighthouse museum reopens after repairs',
          'lighthouse',
          'The museum welcomes visitors again from Monday.',
        ],
        ['Ferry timetable changes for winter', 'ferry', 'Fewer crossings on weekdays until March.'],
        ['New bike lanes approved on Quay Street', 'bike-lanes', 'Work starts in January.'],
        ['Fish market moves to Saturday mornings', 'fish-market', 'Stalls open at 7 am.'],
      ]),
      ['Lighthouse museum reopens after repairs'],
    )
    return [{ input: { feed: 'Harbor Town News' }, expect: { titles: { $type: 'array' } } }]
  },
  answer: (q) => {
    if (q.kind === 'map_option') {
      const word = wordOf(q)?.toLowerCase()
      return q.options.find((o) => o.label.toLowerCase() === word)?.value
    }
    // Asked where the list is, the owner points at an unread headline of the sample's feed.
    if (q.kind === 'point' && /^point at the list/i.test(q.text))
      return pointAt(/./, /ferry timetable|bike lanes|fish market/i)
    // Asked to show how: the feed, opened from the feed tree by its name.
    if (q.kind === 'demonstrate')
      return { show: [{ click: (e) => e.role === 'treeitem' && e.name === 'Harbor Town News' }] }
    return signInAnswer(q)
  },
  live: (app) => {
    const council = seedFeed(
      app,
      'http://www.oakfield-council.example/minutes/feed',
      'Oakfield Council Minutes',
      'News',
      articles('http://www.oakfield-council.example/minutes', [
        [
          'Budget committee meeting of 4 November',
          'budget-nov',
          'The draft budget goes to a vote in December.',
        ],
        ['Planning decision on the old mill site', 'old-mill', 'Housing with a public riverside path.'],
        ['Library opening hours extended', 'library-hours', 'Open until 8 pm on Thursdays.'],
        ['Street lighting survey results', 'lighting', 'Most residents favour warmer lamps.'],
      ]),
      ['Budget committee meeting of 4 November', 'Street lighting survey results'],
    )
    const lab = seedFeed(
      app,
      'http://blog.quarklabs.example/atom.xml',
      'Quark Labs Blog',
      'Technology',
      articles('http://blog.quarklabs.example/posts', [
        ['Measuring battery drain on old phones', 'battery', 'A cheap rig with a shunt resistor.'],
        ['Our move to a four-day build cycle', 'build-cycle', 'Fewer, calmer releases.'],
        ['Notes from the embedded systems meetup', 'meetup', 'Talks on RISC-V boards and tiny kernels.'],
      ]),
      ['Our move to a four-day build cycle'],
      true,
    )
    return [
      { input: { feed: 'Oakfield Council Minutes' }, check: (r) => listed(r, council, [lab]) },
      { input: { feed: 'Quark Labs Blog' }, check: (r) => listed(r, lab, [council]) },
    ]
  },
}

export const ttRssJobs = [subscribe, unreadTitles]

interface Seeded {
  unread: string[]
  read: string[]
}

/** Publishes a feed, subscribes to it, marks some articles read; the titles as stored. */
function seedFeed(
  app: TtRss,
  url: string,
  title: string,
  category: string,
  items: Article[],
  read: string[],
  atom = false,
): Seeded {
  app.publishFeed(url, title, items, atom)
  const id = app.subscribe(url, category)
  app.markRead(id, read)
  const stored = app.articles(id)
  const seeded = {
    unread: stored.filter((a) => a.unread).map((a) => a.title),
    read: stored.filter((a) => !a.unread).map((a) => a.title),
  }
  if (seeded.unread.length + seeded.read.length !== items.length || seeded.read.length !== read.length)
    throw new Error(`harness: feed ${title} was stored as ${JSON.stringify(stored)}`)
  return seeded
}

/** The list has every unread title of the feed, none of its read ones, none of other feeds'. */
function listed(result: Record<string, unknown>, feed: Seeded, others: Seeded[]): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list)
  const missing = feed.unread.filter((t) => !text.includes(t))
  const extra = [...feed.read, ...others.flatMap((o) => [...o.unread, ...o.read])].filter((t) =>
    text.includes(t),
  )
  if (missing.length) return `list lacks ${missing.join(', ')}: ${text.slice(0, 300)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}`
  return undefined
}
