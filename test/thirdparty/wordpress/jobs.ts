// Jobs a small office would want from its WordPress blog, in the caller's words ("a blog post with
// a title and text"), behind the wp-admin sign-in. Each live call is checked against wp_posts.
import type { Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob } from '../../gauntlet/types.ts'
import { type WordPress, WP_PASSWORD, WP_USER } from './app.ts'

const secrets = { username: WP_USER, password: WP_PASSWORD }

/** The values of the options whose labels match (the first match per pattern). */
const pick = (q: Question, ...labels: RegExp[]) => {
  const values = labels
    .map((l) => q.options.find((o) => l.test(o.label))?.value)
    .filter((v): v is string => v !== undefined)
  if (!values.length) return undefined
  return q.multiple ? values : values[0]
}
/** Which input a map_field question is about (its text quotes the input's name first). */
const about = (q: Question) => /“([^”]+)”/.exec(q.text)?.[1] ?? ''

/** Write a post and publish it; the caller gets the new post's id. */
export const writePost: GauntletJob<WordPress> = {
  app: 'wordpress',
  name: 'write and publish a post, return its id',
  method: 'POST',
  path: '/blog/posts',
  prompt: 'Write a blog post with the given title and text, publish it, and return its id',
  secrets,
  samples: () => [
    {
      input: { title: 'New coffee machine in the kitchen', text: 'The new machine makes espresso and tea.' },
      expect: { id: { $type: 'number' } },
    },
  ],
  // The owner knows the editor: a title box, the post's text in the body, and "Publish".
  answer: (q) => {
    if (q.kind === 'choose_submit') return pick(q, /^publish$/i, /publish/i)
    if (q.kind === 'map_field')
      return /title/i.test(about(q))
        ? pick(q, /title/i)
        : pick(q, /paragraph|start writing|block|content|body/i)
    if (q.kind === 'choose_outputs') return pick(q, /\bid\b/i)
    return undefined
  },
  live: (wp) =>
    [
      ['Office closed on Easter Monday', 'The office is closed on 21 April; support answers on Tuesday.'],
      ['Welcome, Priya!', 'Priya joins the design team this week. Say hello at the Friday lunch.'],
    ].map(([title, text]) => ({
      input: { title, text },
      check: (r) => {
        const posts = wp.posts().filter((p) => p.title === title)
        if (posts.length !== 1) return `${posts.length} posts titled ${title}, expected 1`
        const post = posts[0]!
        if (post.status !== 'publish') return `the post ${post.id} is ${post.status}, not published`
        if (!post.content.includes(text!))
          return `the post's text is ${JSON.stringify(post.content.slice(0, 200))}`
        return String(r.id) === String(post.id)
          ? undefined
          : `returned id ${JSON.stringify(r.id)}, the post is ${post.id}`
      },
    })),
}

/** The titles of the posts readers can see (published ones, not drafts). */
export const listPosts: GauntletJob<WordPress> = {
  app: 'wordpress',
  name: 'list the published posts',
  method: 'GET',
  path: '/blog/posts',
  prompt: "List the titles of my blog's published posts",
  secrets,
  samples: (wp) => {
    seed(wp)
    return [{ input: {}, expect: { titles: { $type: 'array' } } }]
  },
  answer: (q) => {
    if (q.kind === 'choose_outputs') return pick(q, /title/i)
    if (q.kind === 'choose_submit') return pick(q, /^published/i, /filter/i)
    return undefined
  },
  live: (wp) => {
    wp.addPost('Quarterly numbers are in', 'Sales grew four percent over the last quarter.')
    wp.addPost('Ideas for the summer outing', 'Boat trip or barbecue? Vote by Friday.', 'draft')
    return [
      { input: {}, check: (r) => publishedListed(wp, r) },
      { input: {}, check: (r) => publishedListed(wp, r) },
    ]
  },
}

/** Look up a post by its title and tell whether it is published or still a draft. */
export const postStatus: GauntletJob<WordPress> = {
  app: 'wordpress',
  name: 'look up a post by title, return its status',
  method: 'GET',
  path: '/blog/posts/status',
  prompt: 'Find the blog post with the given title and return its status',
  secrets,
  samples: (wp) => {
    seed(wp)
    return [{ input: { title: 'Parking during the roadworks' }, expect: { status: { $type: 'string' } } }]
  },
  answer: (q) => {
    if (q.kind === 'map_field') return pick(q, /search/i)
    if (q.kind === 'choose_submit') return pick(q, /search/i)
    if (q.kind === 'choose_outputs') return pick(q, /status|published|draft/i)
    return undefined
  },
  live: (wp) => {
    wp.addPost('Visitor badges at reception', 'Visitors now pick up a badge at reception.')
    wp.addPost('New expense policy', 'Receipts are due within two weeks.', 'draft')
    return ['Visitor badges at reception', 'New expense policy'].map((title) => ({
      input: { title },
      check: (r) => statusIs(wp, r, title),
    }))
  },
}

/**
 * The posts filed in a category, taught by showing it once: the owner picks the category in the
 * posts list's drop-down and presses Filter. The live calls name other categories, so a build
 * that kept the sample's category answers wrongly, and the check says so.
 */
export const postsInCategory: GauntletJob<WordPress> = {
  app: 'wordpress',
  name: 'list the posts in a category',
  method: 'GET',
  path: '/blog/categories/posts',
  prompt: 'List the titles of the blog posts filed in the given category',
  secrets,
  demonstrate: true,
  samples: (wp) => {
    seedCategories(wp)
    return [{ input: { category: 'Facilities' }, expect: { titles: { $type: 'array' } } }]
  },
  answer: (q) => {
    if (q.kind === 'demonstrate')
      return {
        show: [
          { click: (e) => e.role === 'link' && /^posts$/i.test(e.name.trim()) },
          { choose: 'Facilities', in: (e) => e.role === 'combobox' && /categor/i.test(e.name) },
          { click: (e) => e.role === 'button' && /^filter$/i.test(e.name.trim()) },
        ],
      }
    if (q.kind === 'choose_outputs') return pick(q, /title/i)
    return undefined
  },
  live: (wp) => {
    seedCategories(wp)
    return ['Events', 'IT'].map((category) => ({
      input: { category },
      check: (r) => inCategoryListed(wp, r, category),
    }))
  },
}

/**
 * A new category under a parent, taught by showing it once on the Categories screen: its form
 * adds the row to the table beside it without leaving the page (as dialogs and side panels of
 * many admin screens do), and the parent is a drop-down of the existing categories.
 */
export const addCategory: GauntletJob<WordPress> = {
  app: 'wordpress',
  name: 'add a category under a parent',
  method: 'POST',
  path: '/blog/categories',
  prompt: 'Add a blog category with the given name under the given parent category',
  secrets,
  demonstrate: true,
  samples: (wp) => {
    seedCategories(wp)
    return [{ input: { name: 'Parking', parent: 'Facilities' } }]
  },
  answer: (q) => {
    if (q.kind === 'demonstrate')
      return {
        show: [
          { click: (e) => e.role === 'link' && /^posts$/i.test(e.name.trim()) },
          { click: (e) => e.role === 'link' && /^categories$/i.test(e.name.trim()) },
          { type: 'Parking', into: (e) => e.role === 'textbox' && /^name/i.test(e.name.trim()) },
          { choose: 'Facilities', in: (e) => e.role === 'combobox' && /parent/i.test(e.name) },
          { click: (e) => e.role === 'button' && /^add new category$/i.test(e.name.trim()) },
        ],
      }
    return undefined
  },
  live: (wp) =>
    [
      ['Summer party', 'Events'],
      ['Printers', 'IT'],
    ].map(([name, parent]) => ({
      input: { name, parent },
      check: () => {
        const made = wp.categories().filter((c) => c.name === name)
        if (made.length !== 1) return `${made.length} categories named ${name}, expected 1`
        return made[0]!.parent === parent
          ? undefined
          : `${name} is under ${JSON.stringify(made[0]!.parent)}, not ${parent}`
      },
    })),
}

/**
 * A post with tags, given as a list: the editor's tag box takes one tag at a time (typed, then
 * Enter or a comma makes it a token), in a side panel that starts folded. Live calls carry other
 * tags, and a different number of them.
 */
export const taggedPost: GauntletJob<WordPress> = {
  app: 'wordpress',
  name: 'write a post with tags, return its id',
  method: 'POST',
  path: '/blog/tagged-posts',
  prompt: 'Write and publish a blog post with the given title, text and tags, and return its id',
  secrets,
  samples: () => [
    {
      input: {
        title: 'Bike shed opens',
        text: 'The bike shed behind the office is open.',
        tags: ['bikes', 'office'],
      },
      expect: { id: { $type: 'number' } },
    },
  ],
  // The owner knows the editor: the title box, the text in the body, tags in the Tags box.
  answer: (q) => {
    if (q.kind === 'choose_submit') return pick(q, /^publish$/i, /publish/i)
    if (q.kind === 'map_field') {
      const field = about(q)
      if (/tag/i.test(field)) return pick(q, /tag/i)
      return /title/i.test(field) ? pick(q, /title/i) : pick(q, /paragraph|start writing|block|content|body/i)
    }
    if (q.kind === 'choose_outputs') return pick(q, /\bid\b/i)
    return undefined
  },
  live: (wp) =>
    (
      [
        // Not a title the category jobs seed ("Fire drill on Thursday"): the check counts posts by title.
        ['Fire drill moved to Friday', 'Meet at the car park when the alarm sounds.', ['safety']],
        ['New printer upstairs', 'It prints double-sided by default.', ['printers', 'it', 'upstairs']],
      ] as const
    ).map(([title, text, tags]) => ({
      input: { title, text, tags: [...tags] },
      check: (r) => {
        const posts = wp.posts().filter((p) => p.title === title)
        if (posts.length !== 1) return `${posts.length} posts titled ${title}, expected 1`
        const post = posts[0]!
        if (post.status !== 'publish') return `the post ${post.id} is ${post.status}, not published`
        const got = wp
          .tagsOf(post.id)
          .map((t) => t.toLowerCase())
          .sort()
        if (JSON.stringify(got) !== JSON.stringify([...tags].sort()))
          return `the post's tags are ${JSON.stringify(got)}, expected ${JSON.stringify(tags)}`
        return String(r.id) === String(post.id)
          ? undefined
          : `returned id ${JSON.stringify(r.id)}, the post is ${post.id}`
      },
    })),
}

export const wordpressJobs = [writePost, listPosts, postStatus, postsInCategory, addCategory, taggedPost]

/** Posts in three categories, so a list of one category is told apart from another's. */
function seedCategories(wp: WordPress): void {
  if (wp.posts().some((p) => p.title === 'Fire drill on Thursday')) return
  wp.addPost('Fire drill on Thursday', 'The alarm sounds at 10:00.', 'publish', 'Facilities')
  wp.addPost('Lift maintenance', 'The lift is out of order on Monday.', 'publish', 'Facilities')
  wp.addPost('Summer party date', 'The party is on 12 July.', 'publish', 'Events')
  wp.addPost('Book club restarts', 'First meeting in the library.', 'publish', 'Events')
  wp.addPost('New VPN client', 'Install it before Friday.', 'publish', 'IT')
}

function inCategoryListed(
  wp: WordPress,
  result: Record<string, unknown>,
  category: string,
): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list).toLowerCase()
  const posts = wp.posts().filter((p) => p.status !== 'trash')
  const filed = (p: { id: number }) => wp.categoriesOf(p.id).includes(category)
  const missing = posts.filter((p) => filed(p) && !text.includes(p.title.toLowerCase()))
  const extra = posts.filter((p) => !filed(p) && text.includes(p.title.toLowerCase()))
  if (missing.length) return `list lacks ${missing.map((p) => p.title).join(', ')}: ${text.slice(0, 200)}`
  if (extra.length) return `list has posts outside ${category}: ${extra.map((p) => p.title).join(', ')}`
  return undefined
}

/** A blog with some history: a few published posts and a draft nobody sees yet. */
function seed(wp: WordPress): void {
  if (wp.posts().some((p) => p.title === 'Parking during the roadworks')) return
  wp.addPost(
    'Parking during the roadworks',
    'The car park on Mill Street is closed until May; use the garage on Bank Road.',
  )
  wp.addPost('New printer on floor 2', 'Print jobs go to the new printer by default.')
  wp.addPost('Team lunch recap', 'Thanks to everyone who came to the Green Olive.')
  wp.addPost('Holiday rota for August', 'Not final yet.', 'draft')
}

function publishedListed(wp: WordPress, result: Record<string, unknown>): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list).toLowerCase()
  const posts = wp.posts()
  const want = posts.filter((p) => p.status === 'publish').map((p) => p.title)
  const not = posts.filter((p) => p.status !== 'publish').map((p) => p.title)
  const missing = want.filter((t) => !text.includes(t.toLowerCase()))
  const extra = not.filter((t) => text.includes(t.toLowerCase()))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${JSON.stringify(list).slice(0, 200)}`
  if (extra.length) return `list wrongly has the unpublished ${extra.join(', ')}`
  return undefined
}

/** How the admin screens name each stored status. */
const STATUS_WORDS: Record<string, RegExp> = {
  publish: /\bpublish(ed)?\b/i,
  draft: /\bdraft\b/i,
  pending: /\bpending\b/i,
  private: /\bprivate\b/i,
  future: /\bscheduled|future\b/i,
}

function statusIs(wp: WordPress, result: Record<string, unknown>, title: string): string | undefined {
  const posts = wp.posts().filter((p) => p.title === title)
  if (posts.length !== 1) return `${posts.length} posts titled ${title} (test data)`
  const stored = posts[0]!.status
  const values = Object.values(result).filter((v) => typeof v === 'string') as string[]
  const right = STATUS_WORDS[stored]!
  const wrong = Object.entries(STATUS_WORDS).filter(([s]) => s !== stored)
  const said = values.find((v) => right.test(v))
  if (!said) return `no value says ${stored}: ${JSON.stringify(result).slice(0, 200)}`
  if (wrong.some(([, re]) => re.test(said)))
    return `the status ${JSON.stringify(said)} is ambiguous (stored: ${stored})`
  return undefined
}
