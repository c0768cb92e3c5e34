// What a fresh launch says about how the app's earlier instance ended (issue 24 §1).
/**
 * What a person should hear about how the earlier instance ended: one that did not close its
 * windows when asked was ended by force (unsaved work in it is lost), and the lock files it left
 * stay where they are (the app may ask about them when it starts).
 */
export function closeNotice(closed: { ended?: number; staleLocks?: string[] }): string | undefined {
  const locks = closed.staleLocks ?? []
  if (!closed.ended && !locks.length) return undefined
  const ended = 'The app’s earlier instance did not close when asked and was ended'
  if (!locks.length) return `${ended}.`
  return `${ended}; it left ${locks.length === 1 ? 'a lock file' : 'lock files'} (${locks.join(', ')}), which deskhook does not remove: the app may ask about ${locks.length === 1 ? 'it' : 'them'} when it starts.`
}
