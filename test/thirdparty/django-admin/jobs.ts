// Jobs a small company would want from its inventory-and-staff admin site, in the caller's words
// ("add an item", "set the stock of the item with SKU …"), each checked in the site's own
// database. The admin asks for a sign-in first: every job carries the manager's credentials.
import type { Question } from '../../../src/protocol/questions.ts'
import type { GauntletJob, ShowHow } from '../../gauntlet/types.ts'
import { DJANGO_PASSWORD, DJANGO_USER, type DjangoAdmin } from './app.ts'

const secrets = { username: DJANGO_USER, password: DJANGO_PASSWORD }

const option = (q: Question, label: RegExp) => q.options.find((o) => label.test(o.label.trim()))?.value

/**
 * What the owner would say, by kind: which button sends the form (the job's own button first, then
 * the sign-in form's), and which of the page's values are the ones the caller asked for.
 */
function owner(submit: RegExp, outputs?: RegExp, shown?: ShowHow) {
  return (q: Question): string | string[] | ShowHow | undefined => {
    if (q.kind === 'demonstrate') return shown
    if (q.kind === 'choose_submit') return option(q, submit) ?? option(q, /^(log ?in|sign ?in)$/i)
    if (q.kind === 'choose_outputs' && outputs) {
      const picked = q.options.filter((o) => outputs.test(o.label)).map((o) => o.value)
      return picked.length ? picked : undefined
    }
    return undefined
  }
}

/** Add an item to the inventory and return its id. */
export const addItem: GauntletJob<DjangoAdmin> = {
  app: 'django-admin',
  name: 'add an inventory item, return its id',
  method: 'POST',
  path: '/items',
  prompt:
    'Add an item to the inventory with this SKU, name, quantity and location, and return the id of the new item',
  secrets,
  samples: () => [
    {
      input: { sku: 'MUG-001', name: 'Coffee mug', quantity: 24, location: 'Shelf A' },
      expect: { itemId: { $type: 'string' } },
    },
  ],
  // The add form has Save, "Save and add another" and "Save and continue editing": the owner means Save.
  answer: owner(/^save$/i, undefined, {
    show: [
      { click: (e) => e.role === 'link' && e.name === 'Items' },
      { click: (e) => e.role === 'link' && /^add item/i.test(e.name) },
      { type: 'MUG-001', into: (e) => e.role === 'textbox' && /^sku/i.test(e.name) },
      { type: 'Coffee mug', into: (e) => e.role === 'textbox' && /^name/i.test(e.name) },
      { type: '24', into: (e) => /^(textbox|spinbutton)$/.test(e.role) && /^quantity/i.test(e.name) },
      { type: 'Shelf A', into: (e) => e.role === 'textbox' && /^location/i.test(e.name) },
      { click: (e) => e.role === 'button' && e.name === 'Save' },
    ],
  }),
  live: (site) =>
    [
      { sku: 'LAMP-210', name: 'Desk lamp', quantity: 7, location: 'Shelf B' },
      { sku: 'CBL-USB-C', name: 'USB-C cable 2 m', quantity: 130, location: 'Drawer 3' },
    ].map((item) => ({ input: item, check: (r) => addedOnce(site, item, r) })),
}

/** The item was stored once, as given, and the answer names its id. */
function addedOnce(
  site: DjangoAdmin,
  item: { sku: string; name: string; quantity: number; location: string },
  r: Record<string, unknown>,
): string | undefined {
  const found = site.items().filter((i) => i.sku === item.sku)
  if (found.length !== 1) return `${found.length} items with SKU ${item.sku}, expected exactly 1`
  const stored = found[0]!
  const { id, ...fields } = stored
  if (JSON.stringify(fields) !== JSON.stringify(item))
    return `the item was stored as ${JSON.stringify(fields)}, expected ${JSON.stringify(item)}`
  const numbers = String(r.itemId ?? '').match(/\d+/g) ?? []
  return numbers.length === 1 && Number(numbers[0]) === id
    ? undefined
    : `itemId ${JSON.stringify(r.itemId)} is not the new item's id ${id}`
}

/**
 * The same task, taught by showing it (CI's slice; not in the benchmark's job list): the owner adds
 * the sample's item by hand, typing the quantity after the box's own 0, and the job must return
 * the new item's id although the list the save ends on does not show it.
 */
export const addItemShown: GauntletJob<DjangoAdmin> = {
  ...addItem,
  name: 'add an inventory item, shown once',
  path: '/items/shown',
  demonstrate: true,
  samples: () => [
    {
      input: { sku: 'TRAY-01', name: 'Desk tray', quantity: 3, location: 'Shelf C' },
      expect: { itemId: { $type: 'string' } },
    },
  ],
  answer: owner(/^save$/i, undefined, {
    show: [
      { click: (e) => e.role === 'link' && e.name === 'Items' },
      { click: (e) => e.role === 'link' && /^add item/i.test(e.name) },
      { type: 'TRAY-01', into: (e) => e.role === 'textbox' && /^sku/i.test(e.name) },
      { type: 'Desk tray', into: (e) => e.role === 'textbox' && /^name/i.test(e.name) },
      { type: '3', into: (e) => /^(textbox|spinbutton)$/.test(e.role) && /^quantity/i.test(e.name) },
      { type: 'Shelf C', into: (e) => e.role === 'textbox' && /^location/i.test(e.name) },
      { click: (e) => e.role === 'button' && e.name === 'Save' },
    ],
  }),
  live: (site) =>
    [
      { sku: 'CLIP-100', name: 'Paper clips', quantity: 100, location: 'Drawer 2' },
      { sku: 'GLUE-S', name: 'Glue stick', quantity: 18, location: 'Drawer 2' },
    ].map((item) => ({ input: item, check: (r) => addedOnce(site, item, r) })),
}

/** Change the stock count of the item found by its SKU. */
export const setQuantity: GauntletJob<DjangoAdmin> = {
  app: 'django-admin',
  name: 'change the quantity of an item by SKU',
  method: 'POST',
  path: '/items/quantity',
  prompt: 'Set the quantity in stock of the item with the given SKU',
  secrets,
  samples: (site) => {
    site.addItems([
      { sku: 'PEN-BLK', name: 'Black pen', quantity: 200, location: 'Drawer 1' },
      { sku: 'PEN-RED', name: 'Red pen', quantity: 80, location: 'Drawer 1' },
      { sku: 'NB-A5', name: 'A5 notebook', quantity: 45, location: 'Shelf A' },
      { sku: 'STAPLER', name: 'Stapler', quantity: 12, location: 'Shelf C' },
    ])
    return [{ input: { sku: 'PEN-RED', quantity: 75 } }]
  },
  answer: owner(/^save$/i),
  live: (site) =>
    [
      ['NB-A5', 40],
      ['STAPLER', 9],
    ].map(([sku, quantity]) => ({
      input: { sku, quantity },
      check: () => {
        const items = site.items()
        const item = items.find((i) => i.sku === sku)
        if (!item || item.quantity !== quantity)
          return `item ${sku} has quantity ${item?.quantity}, expected ${quantity}`
        const black = items.find((i) => i.sku === 'PEN-BLK')
        if (black?.quantity !== 200) return `another item changed: ${JSON.stringify(black)}`
        if (!item.name || !item.location) return `item ${sku} lost its fields: ${JSON.stringify(item)}`
        return undefined
      },
    })),
}

/** List the items kept in one location. */
export const itemsIn: GauntletJob<DjangoAdmin> = {
  app: 'django-admin',
  name: 'list the items in a location',
  method: 'GET',
  path: '/items',
  prompt: 'List the items kept in the given location, with their SKU, name and quantity',
  secrets,
  samples: (site) => {
    site.addItems([
      { sku: 'TAPE-50', name: 'Packing tape', quantity: 36, location: 'Back room' },
      { sku: 'BOX-M', name: 'Medium box', quantity: 150, location: 'Back room' },
      { sku: 'GLV-L', name: 'Work gloves L', quantity: 10, location: 'Garage' },
      { sku: 'LADDER', name: 'Step ladder', quantity: 2, location: 'Garage' },
      { sku: 'TONER-K', name: 'Black toner', quantity: 5, location: 'Print room' },
    ])
    return [{ input: { location: 'Back room' }, expect: { items: { $type: 'array' } } }]
  },
  // Asked to show how: the item list, then the location in its filter.
  answer: owner(/^(search|go|filter)$/i, /sku|name|quantity/i, {
    show: [
      { click: (e) => e.role === 'link' && e.name === 'Items' },
      { click: (e) => e.role === 'link' && e.name === 'Back room' },
    ],
  }),
  live: () => [
    { input: { location: 'Garage' }, check: (r) => listHas(r, ['GLV-L', 'LADDER'], ['TAPE-50', 'TONER-K']) },
    { input: { location: 'Print room' }, check: (r) => listHas(r, ['TONER-K'], ['BOX-M', 'GLV-L']) },
  ],
}

/**
 * A new account for a colleague: Django's "Add user" form asks for the password twice, the way
 * sign-up and new-user forms do. The live calls' users must be able to sign in with their password.
 */
export const addUser: GauntletJob<DjangoAdmin> = {
  app: 'django-admin',
  name: 'add a user account with a password',
  method: 'POST',
  path: '/users',
  prompt: 'Create a user account with the given username and password',
  secrets,
  samples: () => [{ input: { username: 'priya', password: 'Lantern-Quiet-42' } }],
  answer: owner(/^save$/i),
  live: (site) =>
    [
      ['omar', 'Harbor-Violet-17'],
      ['lena', 'Copper-Meadow-85'],
    ].map(([username, password]) => ({
      input: { username, password },
      check: () => {
        const made = site.users().filter((u) => u.username === username)
        if (made.length !== 1) return `${made.length} users named ${username}, expected 1`
        return site.canSignIn(username!, password!)
          ? undefined
          : `${username} cannot sign in with the password given`
      },
    })),
}

export const djangoAdminJobs = [addItem, setQuantity, itemsIn, addUser]

function listHas(result: Record<string, unknown>, want: string[], not: string[]): string | undefined {
  const list = Object.values(result).find(Array.isArray) as unknown[] | undefined
  if (!list) return `no list in ${JSON.stringify(result).slice(0, 200)}`
  const text = JSON.stringify(list).toUpperCase()
  const missing = want.filter((w) => !text.includes(w))
  const extra = not.filter((w) => text.includes(w))
  if (missing.length) return `list lacks ${missing.join(', ')}: ${JSON.stringify(list).slice(0, 200)}`
  if (extra.length) return `list wrongly has ${extra.join(', ')}: ${JSON.stringify(list).slice(0, 200)}`
  return undefined
}
