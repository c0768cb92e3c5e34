/** Copy buttons: `<button data-copy="text">`. */
export function startCopy(): void {
  document.addEventListener('click', async (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-copy]')
    if (!button) return
    const text = button.dataset.copy ?? ''
    try {
      await navigator.clipboard.writeText(text)
      flash(button, 'Copied')
    } catch {
      // Without clipboard access (plain HTTP on another host), select the text for Ctrl+C.
      const code = button.parentElement?.querySelector('code, pre')
      if (code) window.getSelection()?.selectAllChildren(code)
      flash(button, 'Press Ctrl+C')
    }
  })
}

function flash(button: HTMLButtonElement, text: string): void {
  const before = button.textContent
  button.textContent = text
  setTimeout(() => {
    button.textContent = before
  }, 1500)
}

/** Forms that ask first: `<form data-confirm="Revoke this desktop?">`. */
export function startConfirm(): void {
  document.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement
    const question = form.dataset?.confirm
    if (question && !window.confirm(question)) event.preventDefault()
  })
}

/** The page's CSRF token, for fetches that change state. */
export function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? ''
}
