import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type MediaWiki, startMediaWiki } from './apps/mediawiki.ts'
import { type Rig, startRig } from './harness.ts'
import { mediaWikiJobs } from './jobs/mediawiki-jobs.ts'
import { row, runJob } from './run-job.ts'

// Debian's MediaWiki, installed by its own installer on SQLite and taught over HTTP alone; pages
// are checked with MediaWiki's own scripts. Writing a page opens it by the address its links show
// (index.php?title=<page>&action=edit), and leaving its editor answers "Leave site?" the way a
// fresh start must; the search returns its results list as an array.
let wiki: MediaWiki
let rig: Rig

beforeAll(async () => {
  wiki = await startMediaWiki()
  rig = await startRig(wiki.url)
}, 120_000)

afterAll(async () => {
  await rig?.stop()
  await wiki?.stop()
})

for (const job of mediaWikiJobs)
  test(`mediawiki: ${job.name}`, async () => {
    const outcome = await runJob(rig.server, wiki, job)
    if (outcome.outcome !== 'passed') throw new Error(`${row(outcome)}\n${outcome.trail.join('\n')}`)
    expect(outcome.liveCorrect).toBe(2)
  }, 300_000)
