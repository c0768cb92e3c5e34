/**
 * Tiny server for the fixture web apps in test/fixtures/apps.
 *
 * Serves `/crm/` and `/helpdesk/` (plus their assets) and keeps the apps' data the way a real app's
 * server does: each server instance has its own in-memory store, seeded with the same records
 * every time it starts. The pages load and save through a small JSON API under each app, so a
 * reload keeps what was created and a second submit is a second record; only a new server starts
 * from the seeds again. Tests read the store through `crm` and `helpdesk` (copies).
 *
 *   GET  /crm/api/customers          -> 200 Customer[]
 *   POST /crm/api/customers          -> 201 Customer | 400 { error, field? } | 409 { error, field } (duplicate email)
 *   GET  /crm/api/customers/:id      -> 200 Customer | 404 { error }
 *   GET  /helpdesk/api/tickets       -> 200 Ticket[]
 *   POST /helpdesk/api/tickets       -> 201 Ticket | 400 { error, field? }
 *   GET  /helpdesk/api/tickets/:id   -> 200 Ticket | 404 { error }
 *
 * Saves and lookups answer after a short random delay (the round trip the pages show a spinner
 * for); lists answer at once.
 */
import { join, normalize, sep } from 'node:path'

const APPS_DIR = join(import.meta.dir, '..', 'fixtures', 'apps')
const APPS = new Set(['crm', 'helpdesk'])

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

export interface Customer {
  id: string
  firstName: string
  lastName: string
  email: string
  phone: string
  /** ISO code (`DE`, `GB`, …) or '' when none was chosen. */
  country: string
  vip: boolean
  notes: string
}

export interface Ticket {
  /** `HD-20481`, … */
  number: string
  subject: string
  category: 'hardware' | 'software' | 'network' | 'access'
  priority: 'low' | 'normal' | 'high' | 'urgent'
  description: string
  status: 'Open'
}

export interface FixtureServer {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:41234`; apps live at `${url}/crm/` and `${url}/helpdesk/`. */
  url: string
  /** The CRM's data on this server. */
  crm: { customers(): Customer[] }
  /** The helpdesk's data on this server. */
  helpdesk: { tickets(): Ticket[] }
  stop(): Promise<void>
}

const COUNTRY_CODES = new Set(['DE', 'FR', 'GB', 'US', 'NL', 'ES', 'IT', 'JP'])
const CATEGORIES = new Set<string>(['hardware', 'software', 'network', 'access'])
const PRIORITIES = new Set<string>(['low', 'normal', 'high', 'urgent'])

const CRM_SEED: readonly Customer[] = [
  {
    id: 'C-1039',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace.hopper@example.com',
    phone: '+1 202 555 0143',
    country: 'US',
    vip: false,
    notes: 'Prefers contact by email.',
  },
  {
    id: 'C-1040',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0958',
    country: 'GB',
    vip: true,
    notes: 'Key account since 2019.',
  },
  {
    id: 'C-1041',
    firstName: 'Jan',
    lastName: 'de Vries',
    email: 'jan.devries@example.nl',
    phone: '',
    country: 'NL',
    vip: false,
    notes: '',
  },
]
const CRM_NEXT_NUMBER = 1042
const HELPDESK_NEXT_TICKET = 20481

interface Store {
  customers: Customer[]
  nextCustomer: number
  tickets: Ticket[]
  nextTicket: number
}

function seededStore(): Store {
  return {
    customers: CRM_SEED.map((c) => ({ ...c })),
    nextCustomer: CRM_NEXT_NUMBER,
    tickets: [],
    nextTicket: HELPDESK_NEXT_TICKET,
  }
}

function contentType(path: string): string {
  const dot = path.lastIndexOf('.')
  return (dot >= 0 && CONTENT_TYPES[path.slice(dot)]) || 'application/octet-stream'
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  })
}

const apiError = (status: number, error: string, field?: string) =>
  json(field ? { error, field } : { error }, status)

function methodNotAllowed(allow: string): Response {
  return json({ error: 'Method not allowed' }, 405, { allow })
}

/** The simulated round trip of a save or lookup (the pages show their spinner meanwhile). */
const latency = (min: number, max: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, min + Math.random() * (max - min)))

class BadInput extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
}

/** The request's JSON object body, or BadInput. */
async function jsonObject(req: Request): Promise<Record<string, unknown>> {
  let body: unknown
  try {
    body = JSON.parse(await req.text())
  } catch {
    throw new BadInput('The request body must be JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new BadInput('The request body must be a JSON object')
  return body as Record<string, unknown>
}

function text(body: Record<string, unknown>, key: string): string {
  const value = body[key]
  if (value === undefined || value === null) return ''
  if (typeof value !== 'string') throw new BadInput(`${key} must be a string`, key)
  return value
}

// ---- CRM ------------------------------------------------------------------

/** The same rules and messages as the page's own check. */
function emailProblem(value: string): string | null {
  if (value === '') return 'Email is required'
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return 'Enter a valid email address'
  return null
}

async function createCustomer(store: Store, req: Request): Promise<Response> {
  const body = await jsonObject(req)
  const email = text(body, 'email').trim()
  const firstName = text(body, 'firstName').trim()
  const lastName = text(body, 'lastName').trim()
  const phone = text(body, 'phone').trim()
  const country = text(body, 'country')
  const notes = text(body, 'notes')
  const vip = body.vip ?? false
  if (typeof vip !== 'boolean') throw new BadInput('vip must be true or false', 'vip')
  if (country !== '' && !COUNTRY_CODES.has(country))
    throw new BadInput('Choose a country from the list', 'country')
  const problem = emailProblem(email)
  if (problem) throw new BadInput(problem, 'email')

  await latency(150, 400)
  const lower = email.toLowerCase()
  if (store.customers.some((c) => c.email.toLowerCase() === lower))
    return apiError(409, 'A customer with this email already exists', 'email')
  const customer: Customer = {
    id: `C-${store.nextCustomer++}`,
    firstName,
    lastName,
    email,
    phone,
    country,
    vip,
    notes,
  }
  store.customers.push(customer)
  return json(customer, 201)
}

async function crmApi(store: Store, req: Request, route: string[]): Promise<Response> {
  if (route[0] !== 'customers' || route.length > 2) return apiError(404, 'Not found')
  if (route.length === 1) {
    if (req.method === 'GET' || req.method === 'HEAD') return json(store.customers)
    if (req.method === 'POST') return createCustomer(store, req)
    return methodNotAllowed('GET, HEAD, POST')
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed('GET, HEAD')
  const id = route[1]!
  await latency(100, 250)
  const found = store.customers.find((c) => c.id === id)
  return found ? json(found) : apiError(404, `No customer found with ID ${id}`)
}

// ---- Helpdesk --------------------------------------------------------------

async function createTicket(store: Store, req: Request): Promise<Response> {
  const body = await jsonObject(req)
  const subject = text(body, 'subject').trim()
  const category = text(body, 'category')
  const priority = text(body, 'priority') || 'normal'
  const description = text(body, 'description')
  if (!subject) throw new BadInput('Subject is required', 'subject')
  if (!category) throw new BadInput('Category is required', 'category')
  if (!CATEGORIES.has(category)) throw new BadInput('Choose a category from the list', 'category')
  if (!PRIORITIES.has(priority)) throw new BadInput('Choose a priority from the list', 'priority')

  await latency(200, 450)
  const ticket: Ticket = {
    number: `HD-${store.nextTicket++}`,
    subject,
    category: category as Ticket['category'],
    priority: priority as Ticket['priority'],
    description,
    status: 'Open',
  }
  store.tickets.push(ticket)
  return json(ticket, 201)
}

async function helpdeskApi(store: Store, req: Request, route: string[]): Promise<Response> {
  if (route[0] !== 'tickets' || route.length > 2) return apiError(404, 'Not found')
  if (route.length === 1) {
    if (req.method === 'GET' || req.method === 'HEAD') return json(store.tickets)
    if (req.method === 'POST') return createTicket(store, req)
    return methodNotAllowed('GET, HEAD, POST')
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed('GET, HEAD')
  const number = route[1]!
  const found = store.tickets.find((t) => t.number === number)
  return found ? json(found) : apiError(404, `No ticket found with number ${number}`)
}

async function api(store: Store, req: Request, app: string, route: string[]): Promise<Response> {
  try {
    return app === 'crm' ? await crmApi(store, req, route) : await helpdeskApi(store, req, route)
  } catch (error) {
    if (error instanceof BadInput) return apiError(400, error.message, error.field)
    return apiError(400, 'Bad request')
  }
}

// ---- Routing ---------------------------------------------------------------

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

async function handle(store: Store, req: Request): Promise<Response> {
  const { pathname } = new URL(req.url)

  // Segments are decoded one by one, so an encoded `/` stays inside its segment (an id).
  const segments = pathname.split('/').map(decodeSegment)
  const [, app, ...rest] = segments
  if (app && APPS.has(app) && rest[0] === 'api') {
    const route = rest.slice(1)
    if (route.some((segment) => segment === null)) return apiError(404, 'Not found')
    return api(store, req, app, route as string[])
  }
  if (segments.some((segment) => segment === null)) return notFound()

  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, HEAD' } })
  }
  if (pathname === '/favicon.ico') return new Response(null, { status: 204 })
  if (pathname === '/') {
    const links = [...APPS].map((app) => `<li><a href="/${app}/">${app}</a></li>`).join('')
    return new Response(`<!doctype html><title>Fixture apps</title><ul>${links}</ul>`, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    })
  }

  if (!app || !APPS.has(app)) return notFound()
  // `/crm` -> `/crm/` so relative asset URLs resolve inside the app folder.
  if (rest.length === 0) return new Response(null, { status: 301, headers: { location: `/${app}/` } })

  const relative = (rest as string[]).join('/') || 'index.html'
  const appDir = join(APPS_DIR, app)
  const filePath = normalize(join(appDir, relative))
  if (!filePath.startsWith(appDir + sep)) return notFound()

  const file = Bun.file(filePath)
  if (!(await file.exists())) return notFound()
  return new Response(req.method === 'HEAD' ? null : file, {
    headers: { 'content-type': contentType(filePath), 'cache-control': 'no-store' },
  })
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const store = seededStore()
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req) => handle(store, req),
    // Whatever slips through is a bad request, never a 500.
    error: () => apiError(400, 'Bad request'),
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    crm: { customers: () => structuredClone(store.customers) },
    helpdesk: { tickets: () => structuredClone(store.tickets) },
    async stop() {
      await server.stop(true)
    },
  }
}
