/**
 * Point to answer: `<form data-point-form>` holds a picture of the build's window (an `<img
 * hidden>`), hidden `pointX`/`pointY` fields and a `[data-point-status]` line. A click on the
 * picture is scaled from the size shown to the picture's own pixels and sent as the form (its
 * answer then reloads the page as any answer does). A picture the server cannot take says why.
 */
export function startPoint(): void {
  document.querySelectorAll<HTMLFormElement>('form[data-point-form]').forEach(arm)
}

function arm(form: HTMLFormElement): void {
  const img = form.querySelector('img')
  const x = form.querySelector<HTMLInputElement>('input[name="pointX"]')
  const y = form.querySelector<HTMLInputElement>('input[name="pointY"]')
  const status = form.querySelector<HTMLElement>('[data-point-status]')
  if (!img || !x || !y) return
  const say = (text: string | null) => {
    if (!status) return
    status.hidden = text === null
    if (text !== null) status.textContent = text
  }
  const shown = () => {
    img.hidden = false
    say(null)
  }
  const failed = async () => {
    // The image request shows no reason: ask again for the error's words.
    let reason = 'the desktop did not answer'
    try {
      const res = await fetch(img.src, { headers: { accept: 'application/json' } })
      const body = (await res.json()) as { error?: { message?: string } }
      if (body.error?.message) reason = body.error.message
    } catch {}
    say(`No picture of the window: ${reason}. Answer with the options above.`)
  }
  img.addEventListener('load', shown)
  img.addEventListener('error', failed)
  // The picture may have come (or failed) before this script ran.
  if (img.complete) void (img.naturalWidth > 0 ? shown() : failed())
  let sent = false
  img.addEventListener('click', (event) => {
    const box = img.getBoundingClientRect()
    if (sent || !img.naturalWidth || box.width === 0 || box.height === 0) return
    const spot = (offset: number, shown: number, natural: number) =>
      String(Math.min(natural - 1, Math.max(0, Math.round((offset * natural) / shown))))
    x.value = spot(event.clientX - box.left, box.width, img.naturalWidth)
    y.value = spot(event.clientY - box.top, box.height, img.naturalHeight)
    sent = true
    say('Sending the spot you clicked…')
    form.requestSubmit()
  })
}
