import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type DokuWiki, startDokuWiki } from './apps/dokuwiki.ts'
import { type Rig, startRig } from './harness.ts'
import { dokuWikiJobs } from './jobs/dokuwiki-jobs.ts'
import { row, runJob } from './run-job.ts'

// Debian's DokuWiki, a wiki nobody here wrote, taught over HTTP alone (real server, real agent,
// real Chromium); each job is promoted, called live twice, and checked in the page files. The
// note is a page named by the caller, opened by the address the wiki's own links show
// (doku.php?id=<page>&do=edit); the search returns its results list as an array.
let wiki: DokuWiki
let rig: Rig

beforeAll(async () => {
  wiki = await startDokuWiki()
  rig = await startRig(wiki.url)
}, 120_000)

afterAll(async () => {
  await rig?.stop()
  await wiki?.stop()
})

for (const job of dokuWikiJobs)
  test(`dokuwiki: ${job.name}`, async () => {
    const outcome = await runJob(rig.server, wiki, job)
    if (outcome.outcome !== 'passed') throw new Error(`${row(outcome)}\n${outcome.trail.join('\n')}`)
    expect(outcome.liveCorrect).toBe(2)
  }, 300_000)
