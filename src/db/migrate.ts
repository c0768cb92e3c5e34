import type { Database } from 'bun:sqlite'
import { migrations as embedded } from './migrations/index.ts'

/**
 * Applies the embedded migrations that have not run yet, each in its own IMMEDIATE transaction, so
 * two processes starting at once cannot both apply one. Returns the names it applied.
 */
export function migrate(sqlite: Database, migrations = embedded): string[] {
  sqlite.run('CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)')
  const applied: string[] = []
  for (const m of migrations) {
    const run = sqlite.transaction(() => {
      if (sqlite.query('SELECT 1 FROM _migrations WHERE name = ?').get(m.name)) return false
      for (const statement of m.sql.split('--> statement-breakpoint')) {
        if (statement.trim()) sqlite.run(statement)
      }
      sqlite
        .query('INSERT INTO _migrations (name, applied_at) VALUES (?, ?)')
        .run(m.name, new Date().toISOString())
      return true
    })
    if (run.immediate()) applied.push(m.name)
  }
  return applied
}
