// In progress: filled in with its page.
export function startReplay(): void {}
