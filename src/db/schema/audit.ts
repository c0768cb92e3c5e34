import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export type AuditActorKind = 'user' | 'key' | 'cli' | 'agent' | 'system'

/**
 * Who did what, when: promotions, enrollments, keys, people, settings. Append-only and chained:
 * `hash` is SHA-256 over the previous row's hash and this row's canonical form, so editing or
 * removing a row breaks every link after it (`deskhook audit verify`). `details` never holds a
 * secret, a key or a password. A system table, hence the leading `_`.
 */
export const auditLog = sqliteTable(
  '_audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: text('at').notNull(),
    actorKind: text('actor_kind').$type<AuditActorKind>().notNull(),
    /** The user's id, the key's id, the OS user name for the CLI. */
    actorId: text('actor_id').notNull(),
    /** What a person reads: an email, a key's prefix and name, `cli:<os user>`. */
    actorLabel: text('actor_label').notNull(),
    action: text('action').notNull(),
    targetKind: text('target_kind').notNull(),
    targetId: text('target_id').notNull(),
    /** Canonical JSON (sorted keys), stored as hashed: the verifier rehashes these exact bytes. */
    details: text('details').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [index('audit_log_at').on(t.at), index('audit_log_action').on(t.action)],
)
