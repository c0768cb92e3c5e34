// `bun test/thirdparty/tiddlywiki/smoke.ts`: the starter works without the builder — the wiki
// starts, serves its page, takes seeded notes, they read back from disk, and stop() leaves no
// process and no temp dir behind.
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTiddlyWiki } from './app.ts'

const wiki = await startTiddlyWiki()
const fail = async (why: string) => {
  await wiki.stop()
  console.error(`FAIL: ${why}`)
  process.exit(1)
}
const page = await (await fetch(wiki.url)).text()
if (!page.includes('TiddlyWiki')) await fail('the wiki page is not served')
wiki.putNotes([{ title: 'Smoke note', text: 'Seeded over HTTP.', tags: ['smoke', 'two words'] }])
const note = wiki.note('Smoke note')
if (note?.text !== 'Seeded over HTTP.' || note.tags.join('|') !== 'smoke|two words')
  await fail(`read back ${JSON.stringify(note)}`)
const api = (await (await fetch(`${wiki.url}recipes/default/tiddlers/Smoke%20note`)).json()) as {
  text: string
}
if (api.text !== 'Seeded over HTTP.') await fail(`the HTTP API has ${JSON.stringify(api)}`)
const dir = /thirdparty-tiddlywiki-[^/]+/.exec(
  Bun.spawnSync(['pgrep', '-af', 'thirdparty-tiddlywiki-']).stdout.toString(),
)?.[0]
await wiki.stop()
const left = Bun.spawnSync(['pgrep', '-f', dir ?? 'thirdparty-tiddlywiki-'])
  .stdout.toString()
  .trim()
if (left) {
  console.error(`FAIL: processes left: ${left}`)
  process.exit(1)
}
if (dir && existsSync(join(tmpdir(), dir))) {
  console.error(`FAIL: ${dir} left behind`)
  process.exit(1)
}
console.log(`ok: tiddlywiki started, seeded, read back (${JSON.stringify(note)}), stopped cleanly`)
