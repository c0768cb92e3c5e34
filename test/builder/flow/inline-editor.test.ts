// A post's text goes into an editor that opens only when its line is pressed ("Type / to choose
// a block", as block editors and inline-edit fields show it), in real Chromium: the builder has
// no field for the text, presses the line that invites writing, types into the rich-text editor
// that opens, and the click is part of the job. "Publish" opens a panel with its own "Publish"
// (the send's second half), which the job presses too; a live run writes another post the same way.
import { describe, expect, test } from 'bun:test'
import { buildAutomation } from '../../../src/builder/index.ts'
import { localDesktop } from '../../helpers/local-desktop.ts'
import { htmlPage, pageRig } from '../../helpers/page-rig.ts'
import { scriptedIO } from '../scripted-io.ts'

interface Post {
  id: number
  title: string
  text: string
}
const posts: Post[] = []

const editor = `<!doctype html><html><head><title>Add new post</title></head><body>
<h1>Add new post</h1>
<form id="post" method="post" action="/posts">
  <input name="title" aria-label="Add title" placeholder="Add title">
  <input type="hidden" name="text">
  <div id="body">
    <p role="button" tabindex="0" aria-label="Add default block" id="appender">Type / to choose a block</p>
  </div>
  <button type="button" id="open-panel">Publish</button>
  <section id="panel" hidden aria-label="Publish panel">
    <h2>Are you ready to publish?</h2>
    <button type="submit">Publish</button> <button type="button" id="cancel">Cancel</button>
  </section>
</form>
<script>
  document.getElementById('appender').addEventListener('click', () => {
    const block = document.createElement('p')
    block.setAttribute('contenteditable', 'true')
    block.setAttribute('role', 'document')
    block.setAttribute('aria-label', 'Empty block; start writing or type forward slash to choose a block')
    document.getElementById('body').replaceChildren(block)
    block.focus()
  })
  // The first "Publish" opens a panel with the one that sends, as editors ask before publishing.
  document.getElementById('open-panel').addEventListener('click', () => { document.getElementById('panel').hidden = false })
  document.getElementById('cancel').addEventListener('click', () => { document.getElementById('panel').hidden = true })
  document.getElementById('post').addEventListener('submit', () => {
    const block = document.querySelector('[contenteditable]')
    document.querySelector('[name=text]').value = block ? block.textContent : ''
  })
</script></body></html>`

const published = (p: Post) => `<!doctype html><html><head><title>${p.title}</title></head><body>
<h1>${p.title}</h1><p>Post published.</p><p>Post ID: <span>${p.id}</span></p></body></html>`

const rig = pageRig(async (req) => {
  const url = new URL(req.url)
  if (req.method === 'POST' && url.pathname === '/posts') {
    const form = await req.formData()
    const post = {
      id: 100 + posts.length,
      title: String(form.get('title')),
      text: String(form.get('text')),
    }
    posts.push(post)
    return htmlPage(published(post))
  }
  return htmlPage(editor)
})

describe('an editor that opens when its line is pressed', () => {
  test('the text goes into the editor the line opens; the click is a step of the job', async () => {
    const window = await rig.driver.launch({ url: rig.server.url.href })
    const port = localDesktop(rig.driver)
    // The opened block is named for what it is, not for "text", and no field is named for the
    // text: the editor opened for it takes it, with no question.
    const script = scriptedIO([])
    const result = await buildAutomation(port, script.io, {
      prompt: 'Write a blog post with the given title and text, publish it, and return its id',
      sample: {
        id: 's1',
        input: { title: 'New coffee machine', text: 'It makes espresso and tea.' },
        expect: { id: { $type: 'string' } },
      },
      previous: [],
    })
    expect(script.unexpected).toEqual([])
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    expect(posts[0]).toEqual({ id: 100, title: 'New coffee machine', text: 'It makes espresso and tea.' })
    expect(script.lines.some((l) => l.includes('“Type / to choose a block” opened an editor'))).toBe(true)
    expect(
      script.lines.some((l) => l.includes('the editor that opened for the text no field is named for')),
    ).toBe(true)
    expect(posts).toHaveLength(1)

    await rig.driver.navigate(window.id, rig.server.url.href)
    const run = await port.run(result.automation, {
      title: 'Visitor badges',
      text: 'Pick one up at reception.',
    })
    expect(run.status).toBe('succeeded')
    expect(posts[1]).toEqual({ id: 101, title: 'Visitor badges', text: 'Pick one up at reception.' })
    expect(run.result).toEqual({ id: '101' })
    expect(posts).toHaveLength(2)
  }, 90_000)

  test('two texts with no field and one editor: which goes there is asked, never guessed', async () => {
    const window = await rig.driver.launch({ url: rig.server.url.href })
    const port = localDesktop(rig.driver)
    const script = scriptedIO([
      { kind: 'map_field', answer: (q) => q.options.find((o) => /block/i.test(o.label))!.value },
      // Then nothing is free for the summary, which the task names: it is not on this screen.
      { kind: 'point', answer: () => '__none__' },
    ])
    const result = await buildAutomation(port, script.io, {
      prompt: 'Write a blog post with the given title, text and summary, publish it, and return its id',
      sample: {
        id: 's2',
        input: {
          title: 'Bike shed',
          text: 'The shed behind the office is open.',
          summary: 'A short note on bikes.',
        },
        expect: { id: { $type: 'string' } },
      },
      previous: [],
    })
    expect(script.unexpected).toEqual([])
    if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${script.lines.join('\n')}`)
    expect(script.lines.filter((l) => l.startsWith('[question]'))).toHaveLength(2)
    expect(posts.at(-1)).toMatchObject({ title: 'Bike shed', text: 'The shed behind the office is open.' })
    await rig.driver.navigate(window.id, 'about:blank')
  }, 90_000)
})
