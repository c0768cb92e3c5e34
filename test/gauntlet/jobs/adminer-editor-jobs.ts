// Jobs a shop's back office would want from Adminer Editor (behind its sign-in): add a product
// (its category by number, in a box labelled "category_id") and get its id, look a product up by
// its SKU, and change the price of the product with a given SKU. Checked in the database itself.
import type { AdminerEditor } from '../apps/adminer-editor.ts'
import type { GauntletJob } from '../types.ts'

const option = (label: RegExp) => (q: { options: { value: string; label: string }[] }) =>
  q.options.find((o) => label.test(o.label))?.value
const secrets = { username: 'office', password: 'shop-office-pass' }

export const addProduct: GauntletJob<AdminerEditor> = {
  app: 'adminer-editor',
  name: 'add a product, return its id',
  method: 'POST',
  path: '/products',
  prompt: 'Add a new product with the given name, SKU, price and category, and return its id',
  secrets,
  samples: () => [
    {
      input: { name: 'Hedge shears', sku: 'GT-110', price: '31.5', categoryId: 1 },
      expect: { id: { $type: 'number' } },
    },
  ],
  answer: (q) => (q.kind === 'choose_submit' ? option(/^save$/i)(q) : undefined),
  live: (app) =>
    (
      [
        ['Chef knife', 'KT-210', '45', 2, 'Kitchen'],
        ['Stapler', 'OS-400', '12.25', 4, 'Office supplies'],
      ] as const
    ).map(([name, sku, price, categoryId, category]) => ({
      input: { name, sku, price, categoryId },
      check: (r) => {
        const rows = app.products().filter((p) => p.sku === sku)
        if (rows.length !== 1) return `${rows.length} products with SKU ${sku}, expected 1`
        const row = rows[0]!
        if (row.name !== name || Number(row.price) !== Number(price) || row.category !== category)
          return `the product is ${JSON.stringify(row)}, expected ${name} at ${price} in ${category}`
        return String(r.id) === String(row.id)
          ? undefined
          : `returned id ${JSON.stringify(r.id)}, the product's id is ${row.id}`
      },
    })),
}

export const productBySku: GauntletJob<AdminerEditor> = {
  app: 'adminer-editor',
  name: 'look up a product by SKU, return name and price',
  method: 'GET',
  path: '/products/by-sku',
  prompt: 'Find the product with the given SKU and return its name and price',
  secrets,
  samples: (app) => {
    app.addProduct('Watering can', 'GT-120', 15.75, 'Garden tools')
    return [{ input: { sku: 'GT-120' }, expect: { name: 'Watering can', price: '15.75' } }]
  },
  // The products list's search form is sent with "Select" (Adminer's word for it).
  answer: (q) => (q.kind === 'choose_submit' ? option(/^select$/i)(q) : undefined),
  live: (app) => {
    app.addProduct('Toaster', 'KT-230', 29.99, 'Kitchen')
    app.addProduct('Floor lamp', 'LT-310', 89, 'Lighting')
    return (
      [
        ['KT-230', 'Toaster', 29.99],
        ['LT-310', 'Floor lamp', 89],
      ] as const
    ).map(([sku, name, price]) => ({
      input: { sku },
      check: (r) =>
        r.name === name && Number(r.price) === price
          ? undefined
          : `got ${JSON.stringify(r)}, expected ${name} at ${price}`,
    }))
  },
}

export const reprice: GauntletJob<AdminerEditor> = {
  app: 'adminer-editor',
  name: 'change the price of the product with a SKU',
  method: 'POST',
  path: '/products/reprice',
  prompt: 'Edit the product with the given SKU and change its price',
  secrets,
  samples: (app) => {
    app.addProduct('Rake', 'GT-130', 18, 'Garden tools')
    return [{ input: { sku: 'GT-130', price: '21' } }]
  },
  answer: (q) => (q.kind === 'choose_submit' ? option(/^save$/i)(q) : undefined),
  live: (app) => {
    app.addProduct('Blender', 'KT-240', 59, 'Kitchen')
    app.addProduct('Bulb pack', 'LT-320', 9.5, 'Lighting')
    return (
      [
        ['KT-240', '64.5'],
        ['LT-320', '8'],
      ] as const
    ).map(([sku, price]) => ({
      input: { sku, price },
      check: () => {
        const changed = app.products().filter((p) => p.sku === sku)
        const others = app.products().filter((p) => p.sku !== sku && Number(p.price) === Number(price))
        if (changed.length !== 1 || Number(changed[0]!.price) !== Number(price))
          return `product ${sku} is ${JSON.stringify(changed)}, expected price ${price}`
        return others.length ? `other products got price ${price}: ${JSON.stringify(others)}` : undefined
      },
    }))
  },
}

export const adminerEditorJobs = [addProduct, productBySku, reprice]
