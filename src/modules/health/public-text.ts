import { join } from 'node:path'
import { DB_FILE } from '../../db/client.ts'

/**
 * A message for someone who has not shown a key or a session: where the server keeps its data is
 * nobody else's business (issue 23, N11), so the data dir's absolute path becomes "the data dir"
 * (the database file its plain name). Logs and the CLI keep the path for the admin.
 */
export function withoutDataDir(dataDir: string, text: string): string {
  return text.replaceAll(join(dataDir, DB_FILE), DB_FILE).replaceAll(dataDir, 'the data dir')
}
