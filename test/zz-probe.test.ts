// Temporary: the owner looks at their app (not committed).
import { test } from 'bun:test'
import { BrowserDriver } from '../src/agent/drivers/browser/index.ts'
import type { UiElement } from '../src/protocol/elements.ts'

const appName = process.env.PROBE_APP!
const steps: string[] = JSON.parse(process.env.PROBE_STEPS ?? '[]')
test('probe', async () => {
  const { app } = await import(`./thirdparty/${appName}/index.ts`)
  const running = await app.start()
  if (appName === 'request-tracker') console.log('TICKETS', running.addTickets([{ queue: 'IT Support', subject: 'Probe ticket', description: 'x', requestor: 'eva.novak@example.com', status: 'open', owner: 'root' }]))
  const d = new BrowserDriver()
  await d.start()
  try {
    const { id } = await d.launch({ url: running.url })
    const dump = async () => {
      const snap = await d.snapshot(id)
      const lines: string[] = []
      const visit = (e: UiElement, depth: number) => {
        if (e.role !== 'generic' || e.name)
          lines.push(
            `${'  '.repeat(Math.min(depth, 8))}${e.role} "${e.name.slice(0, 60)}"${e.value ? ` =${e.value.slice(0, 30)}` : ''} ${e.bounds ? `@${Math.round(e.bounds.x)},${Math.round(e.bounds.y)}` : ''}`,
          )
        for (const c of e.children) visit(c, depth + 1)
      }
      visit(snap.root, 0)
      return `${snap.window.url}\n${lines.join('\n')}`
    }
    const flat = (e: UiElement): UiElement[] => [e, ...e.children.flatMap(flat)]
    for (const step of steps) {
      const [verb, role, name, text] = step.split('~')
      const all = flat((await d.snapshot(id)).root)
      const el = name!.startsWith('#')
        ? all.filter((e) => e.role === role)[Number(name!.slice(1))]
        : all.find((e) => e.role === role && (e.name === name || new RegExp(name!).test(e.name)))
      if (!el) {
        console.log(`NOT FOUND ${step}`)
        break
      }
      if (verb === 'click') await d.act(id, { kind: 'click', ref: el.ref } as never)
      if (verb === 'fill') await d.act(id, { kind: 'fill', ref: el.ref, value: text } as never)
      if (verb === 'enter') await d.act(id, { kind: 'keys', ref: el.ref, keys: 'Enter' } as never)
      await Bun.sleep(1500)
    }
    await Bun.write(`/tmp/probe/${appName}.txt`, await dump())
  } finally {
    await d.stop()
    await running.stop()
  }
}, 180_000)
