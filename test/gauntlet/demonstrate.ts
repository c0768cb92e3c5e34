// The owner's demonstration in a gauntlet job (run-job.ts): over HTTP, as the dashboard's preview
// does it, a recording is started, each step waits for its element on the build's live screen (a
// list scrolled to it, as a person scrolls) and acts at its centre, and the recording is stopped.
import type { BuildScreen } from '../../src/modules/screen/service.ts'
import { eventually } from '../helpers/cli.ts'
import { decodeJpeg } from '../helpers/jpeg-pixels.ts'
import type { TestServer } from '../helpers/test-server.ts'
import type { Pick, ScreenElement, ShowHow } from './types.ts'

const LISTS = new Set(['table', 'list', 'tree', 'listbox'])
const OPTIONS = new Set(['option', 'menuitem', 'listitem'])

/**
 * The owner shows how, over HTTP as the dashboard's preview does: a recording is started, each
 * step waits for its element on the build's live screen and acts at its centre, and the
 * recording is stopped. Returns what went wrong in words, when a step found nothing.
 */
export async function demonstrate(
  s: TestServer,
  buildId: string,
  how: ShowHow,
): Promise<{ recordingId: string } | string> {
  const started = await s.call(`/_builds/${buildId}/recordings`, { method: 'POST' })
  if (started.status !== 201) return `starting a recording: HTTP ${started.status} ${await started.text()}`
  const { recordingId } = (await started.json()) as { recordingId: string }
  const rec = `/_builds/${buildId}/recordings/${recordingId}`
  /**
   * Not on the screen at all: a person scrolls the lists that may hold it (a row below the ones a
   * list shows, which a Qt table does not expose). Each list moves down by its own height; false
   * when the screen has no list.
   */
  const scrollLists = async (): Promise<boolean> => {
    const lists = ((await readScreen(s, buildId)).elements ?? []).filter(
      (e) => LISTS.has(e.role) && e.bounds.height > 40,
    )
    for (const list of lists)
      await s.call(`${rec}/input`, {
        method: 'POST',
        json: {
          kind: 'scroll',
          x: Math.round(list.bounds.x + list.bounds.width / 2),
          y: Math.round(list.bounds.y + list.bounds.height / 2),
          deltaY: Math.round(list.bounds.height * 0.8),
        },
      })
    return lists.length > 0
  }
  /** The element, scrolled into the window first when it lies below or above what shows. */
  const find = async (pick: Pick): Promise<ScreenElement | undefined> => {
    for (let scrolls = 0; ; scrolls++) {
      const found = await eventually(
        async () => {
          const screen = await readScreen(s, buildId)
          const all = screen.elements ?? []
          const element = all.find((e) => pick(e, all))
          return (
            element && {
              element,
              shown: screen.image ? decodeJpeg(Buffer.from(screen.image, 'base64')) : undefined,
            }
          )
        },
        scrolls === 0 ? 20_000 : 5_000,
      ).catch(() => undefined)
      if (!found && scrolls < 3 && (await scrollLists())) continue
      if (!found?.shown || scrolls === 3) return found?.element
      const { width, height } = found.shown
      const y = found.element.bounds.y + found.element.bounds.height / 2
      if (y >= 0 && y <= height) return found.element
      await s.call(`${rec}/input`, {
        method: 'POST',
        json: {
          kind: 'scroll',
          x: Math.round(width / 2),
          y: Math.round(height / 2),
          deltaY: Math.round(y - height / 2),
        },
      })
    }
  }
  const centre = (e: ScreenElement) => ({
    x: Math.round(e.bounds.x + e.bounds.width / 2),
    y: Math.round(e.bounds.y + e.bounds.height / 2),
  })
  const status = async () => ((await (await s.call(rec)).json()) as { screensRead?: number }).screensRead ?? 0
  let read = await status()
  /**
   * As a person does, the next step waits for the screen to settle after this one: until the
   * recorder has read a new screen (a step that changes nothing on it, after 5 s) and the window
   * reads the same twice.
   */
  const settle = async () => {
    await eventually(async () => (await status()) > read, 5_000).catch(() => undefined)
    let seen = ''
    await eventually(async () => {
      const screen = await readScreen(s, buildId)
      const now = (screen.elements ?? []).map((e) => `${e.role}:${e.name}`).join('\n')
      const same = now === seen && now !== ''
      seen = now
      return same
    }, 10_000).catch(() => undefined)
    read = await status()
  }
  // The owner signs in first only when the screen asks (the builder may have signed in already).
  const asked =
    how.signIn && (await readScreen(s, buildId)).elements?.some((e, _, all) => how.signIn!.when(e, all))
  const steps = asked ? [...how.signIn!.steps, ...how.show] : how.show
  for (const [i, step] of steps.entries()) {
    let input: Record<string, unknown>
    if ('key' in step) input = { kind: 'key', key: step.key }
    else {
      const pick =
        'click' in step ? step.click : 'hover' in step ? step.hover : 'into' in step ? step.into : step.in
      const target = await find(pick)
      if (!target) {
        if (process.env.GAUNTLET_SHOW_DEBUG) {
          const screen = await readScreen(s, buildId)
          await Bun.write(process.env.GAUNTLET_SHOW_DEBUG, JSON.stringify(screen.elements ?? [], null, 1))
        }
        await s.call(`${rec}/cancel`, { method: 'POST' })
        return `step ${i + 1} found nothing to act on`
      }
      input =
        'click' in step
          ? { kind: 'click', ...centre(target) }
          : 'hover' in step
            ? { kind: 'hover', ...centre(target) }
            : 'into' in step
              ? { kind: 'type', text: step.type, ...centre(target) }
              : { kind: 'select', option: step.choose, ...centre(target) }
    }
    let res = await s.call(`${rec}/input`, { method: 'POST', json: input })
    // A desktop app takes no remote choice: the owner clicks the drop-down, then its option.
    if (res.status === 422 && 'choose' in step && (await res.clone().text()).includes('INPUT_NOT_TAKEN')) {
      res = await s.call(`${rec}/input`, { method: 'POST', json: { kind: 'click', x: input.x, y: input.y } })
      await settle()
      const option =
        res.status === 204
          ? await find((e) => OPTIONS.has(e.role) && e.name.trim() === step.choose)
          : undefined
      if (option)
        res = await s.call(`${rec}/input`, { method: 'POST', json: { kind: 'click', ...centre(option) } })
    }
    if (res.status !== 204) {
      await s.call(`${rec}/cancel`, { method: 'POST' })
      return `step ${i + 1}: HTTP ${res.status} ${await res.text()}`
    }
    await settle()
  }
  const stopped = await s.call(`${rec}/stop`, { method: 'POST' })
  if (stopped.status !== 200) return `stopping the recording: HTTP ${stopped.status} ${await stopped.text()}`
  return { recordingId }
}

/** The build's window as it is now (GET /_builds/<id>/screen): its elements and its picture. */
export async function readScreen(s: TestServer, buildId: string): Promise<Partial<BuildScreen>> {
  return (await (await s.call(`/_builds/${buildId}/screen`)).json()) as Partial<BuildScreen>
}
