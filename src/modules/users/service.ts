import { count, eq } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { sessions, type UserRole, users } from '../../db/schema/index.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { type Actor, SYSTEM_ACTOR, userActor } from '../audit/actor.ts'
import { recordAudit } from '../audit/record.ts'
import { sessionsEnded } from './session-watch.ts'

export type User = typeof users.$inferSelect
export type UserView = Omit<User, 'passwordHash'>

export const USER_ROLES: readonly UserRole[] = ['admin', 'member']
export const MIN_PASSWORD_LENGTH = 10
const MAX_PASSWORD_LENGTH = 256

export const toUserView = ({ passwordHash: _, ...rest }: User): UserView => rest

/** Trims and lower-cases; refuses what cannot be an address, with a message a form can show. */
export function normaliseEmail(email: string): string {
  const e = email.trim().toLowerCase()
  if (e.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(e))
    throw new AppError('INVALID_REQUEST', 'Enter an email address such as ana@example.com', {
      field: 'email',
    })
  return e
}

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new AppError('INVALID_REQUEST', `A password needs at least ${MIN_PASSWORD_LENGTH} characters`, {
      field: 'password',
    })
  if (password.length > MAX_PASSWORD_LENGTH)
    throw new AppError('INVALID_REQUEST', `A password may have at most ${MAX_PASSWORD_LENGTH} characters`, {
      field: 'password',
    })
}

function checkRole(role: string): UserRole {
  if (!USER_ROLES.includes(role as UserRole))
    throw new AppError('INVALID_REQUEST', `A role is one of: ${USER_ROLES.join(', ')}`, { field: 'role' })
  return role as UserRole
}

/**
 * argon2id costs 64 MiB and tens of milliseconds per hash: at most 4 run at once (RELIABILITY.md),
 * so a burst of sign-ins queues instead of exhausting memory and both cores.
 */
const MAX_CONCURRENT_HASHES = 4
let hashing = 0
const waiting: (() => void)[] = []
async function limited<T>(work: () => Promise<T>): Promise<T> {
  // A finishing hash hands its slot straight to the next waiter, so the count never overshoots.
  if (hashing >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve))
  else hashing++
  try {
    return await work()
  } finally {
    const next = waiting.shift()
    if (next) next()
    else hashing--
  }
}

export const hashPassword = (password: string) =>
  limited(() => Bun.password.hash(password, { algorithm: 'argon2id' }))

export async function createUser(
  ctx: AppContext,
  input: { email: string; password: string; role: string; name?: string },
  /** `self`: first-run setup, where the new admin creates their own account. */
  actor: Actor | 'self' = SYSTEM_ACTOR,
): Promise<UserView> {
  const email = normaliseEmail(input.email)
  checkPassword(input.password)
  const role = checkRole(input.role)
  if (findUserByEmail(ctx, email))
    throw new AppError('INVALID_REQUEST', `There is already a person with the email ${email}`, {
      field: 'email',
    })
  const now = ctx.clock.now().toISOString()
  const row: User = {
    id: newId(),
    email,
    name: (input.name ?? '').trim().slice(0, 100),
    role,
    passwordHash: await hashPassword(input.password),
    createdAt: now,
    updatedAt: now,
    lastSignInAt: null,
  }
  ctx.db.transaction(
    (tx) => {
      tx.insert(users).values(row).run()
      const details = { email, role }
      const by = actor === 'self' ? userActor(row) : actor
      recordAudit(
        ctx,
        { actor: by, action: 'user.created', target: { kind: 'user', id: row.id }, details },
        tx,
      )
    },
    { behavior: 'immediate' },
  )
  return toUserView(row)
}

export function countUsers(ctx: AppContext): number {
  return ctx.db.select({ n: count() }).from(users).get()?.n ?? 0
}

export function listUsers(ctx: AppContext): UserView[] {
  return ctx.db.select().from(users).orderBy(users.createdAt).all().map(toUserView)
}

export function findUserByEmail(ctx: AppContext, email: string): User | undefined {
  return ctx.db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get()
}

export function getUser(ctx: AppContext, id: string): User | undefined {
  return ctx.db.select().from(users).where(eq(users.id, id)).get()
}

/** By id or email, as the CLI and the people page name them. */
export function requireUser(ctx: AppContext, idOrEmail: string): User {
  const user = getUser(ctx, idOrEmail) ?? findUserByEmail(ctx, idOrEmail)
  if (!user) throw new AppError('NOT_FOUND', `No person with the id or email ${idOrEmail}`)
  return user
}

const countAdmins = (ctx: AppContext) =>
  ctx.db.select({ n: count() }).from(users).where(eq(users.role, 'admin')).get()?.n ?? 0

/** A new password ends every session of that person. */
export async function resetPassword(
  ctx: AppContext,
  idOrEmail: string,
  password: string,
  actor = SYSTEM_ACTOR,
): Promise<UserView> {
  const user = requireUser(ctx, idOrEmail)
  checkPassword(password)
  const passwordHash = await hashPassword(password)
  const updatedAt = ctx.clock.now().toISOString()
  ctx.db.transaction((tx) => {
    tx.update(users).set({ passwordHash, updatedAt }).where(eq(users.id, user.id)).run()
    tx.delete(sessions).where(eq(sessions.userId, user.id)).run()
    const details = { email: user.email }
    recordAudit(
      ctx,
      { actor, action: 'user.password_reset', target: { kind: 'user', id: user.id }, details },
      tx,
    )
  })
  // Their open event streams end with their sessions.
  sessionsEnded(ctx)
  return toUserView({ ...user, passwordHash, updatedAt })
}

export function setRole(ctx: AppContext, idOrEmail: string, role: string, actor = SYSTEM_ACTOR): UserView {
  const user = requireUser(ctx, idOrEmail)
  const next = checkRole(role)
  if (user.role === 'admin' && next !== 'admin' && countAdmins(ctx) <= 1)
    throw new AppError(
      'INVALID_REQUEST',
      'The workspace needs at least one admin; make someone else admin first',
    )
  const updatedAt = ctx.clock.now().toISOString()
  ctx.db.transaction(
    (tx) => {
      tx.update(users).set({ role: next, updatedAt }).where(eq(users.id, user.id)).run()
      const details = { email: user.email, from: user.role, to: next }
      recordAudit(
        ctx,
        { actor, action: 'user.role_changed', target: { kind: 'user', id: user.id }, details },
        tx,
      )
    },
    { behavior: 'immediate' },
  )
  return toUserView({ ...user, role: next, updatedAt })
}

/** Removes a person and their sessions; never the last admin. */
export function removeUser(ctx: AppContext, idOrEmail: string, actor = SYSTEM_ACTOR): UserView {
  const user = requireUser(ctx, idOrEmail)
  if (user.role === 'admin' && countAdmins(ctx) <= 1)
    throw new AppError('INVALID_REQUEST', 'The last admin cannot be removed; make someone else admin first')
  // Sessions go with the row (ON DELETE CASCADE).
  ctx.db.transaction(
    (tx) => {
      tx.delete(users).where(eq(users.id, user.id)).run()
      const details = { email: user.email, role: user.role }
      recordAudit(ctx, { actor, action: 'user.removed', target: { kind: 'user', id: user.id }, details }, tx)
    },
    { behavior: 'immediate' },
  )
  sessionsEnded(ctx)
  return toUserView(user)
}

/**
 * Checks an email and password. Always spends one argon2 verification, even for an unknown email,
 * so response times do not tell which addresses have accounts.
 */
export async function verifyCredentials(
  ctx: AppContext,
  email: string,
  password: string,
): Promise<User | null> {
  const user = findUserByEmail(ctx, email)
  const hash = user?.passwordHash ?? (await dummyHash())
  const ok = await limited(() => Bun.password.verify(password.slice(0, MAX_PASSWORD_LENGTH), hash)).catch(
    () => false,
  )
  return user && ok ? user : null
}

let dummy: Promise<string> | undefined
const dummyHash = () => {
  dummy ??= hashPassword(crypto.randomUUID())
  return dummy
}
