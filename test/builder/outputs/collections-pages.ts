// Small static pages shaped like the collections third-party apps show after a search: an admin
// change-list (a sidebar of model tables, a checkbox column, a header row), a CMS post table
// (a select-all cell in the header, row actions in the title cell), a blog's <article> cards with
// a sidebar, and a webmail ARIA grid without a header row beside a folder tree.
const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`

const search = (action: string, q: string) =>
  `<form action="${action}"><label for="q">Search</label><input id="q" name="q" value="${q}"><button>Search</button></form>`

const PRODUCTS = [
  ['Widget', 'W-1', '3'],
  ['Gadget', 'G-7', '12'],
  ['Widget Pro', 'W-2', '0'],
]

export function changeList(q: string): string {
  const rows = PRODUCTS.filter(([name]) => name!.toLowerCase().includes(q.toLowerCase()))
  const sidebar = ['Products', 'Suppliers', 'Staff']
    .map(
      (m) =>
        `<tr><th scope="row"><a href="/admin/${m.toLowerCase()}/">${m}</a></th><td><a href="/admin/${m.toLowerCase()}/add/">Add</a></td></tr>`,
    )
    .join('')
  const body = rows
    .map(
      ([name, sku, stock]) =>
        `<tr><td><input type="checkbox" aria-label="Select this object for an action - ${name}"></td><th><a href="/admin/products/${sku}/change/">${name}</a></th><td>${sku}</td><td>${stock}</td></tr>`,
    )
    .join('')
  return page(
    'Select product to change',
    `<nav id="nav-sidebar"><table><caption>Inventory</caption>${sidebar}</table></nav>
     <main><h1>Select product to change</h1>${search('/admin/products/', q)}
     <p>${rows.length} results (${PRODUCTS.length} total)</p>
     <table id="result_list"><thead><tr>
       <th><input type="checkbox" aria-label="Select all objects on this page for an action"></th>
       <th><a href="?o=1">Name</a></th><th>SKU</th><th>Stock</th></tr></thead>
     <tbody>${body}</tbody></table></main>`,
  )
}

const POSTS = [
  ['Hello world', 'admin', 'Published 2024/01/02'],
  ['Printer setup guide', 'editor', 'Published 2024/02/03'],
  ['Printer troubleshooting', 'admin', 'Draft'],
]

export function postTable(q: string): string {
  const rows = POSTS.filter(([title]) => title!.toLowerCase().includes(q.toLowerCase()))
  const menu = ['Dashboard', 'Posts', 'Media', 'Pages', 'Comments']
    .map((m) => `<li><a href="/${m.toLowerCase()}">${m}</a></li>`)
    .join('')
  const body = rows
    .map(
      ([title, author, date], i) =>
        `<tr><th scope="row"><input type="checkbox" id="cb-${i}"><label for="cb-${i}">Select ${title}</label></th>
         <td><strong><a href="/post/${i}/edit">${title}</a></strong>
           <div><span><a href="/post/${i}/edit">Edit</a> | </span><span><a href="/post/${i}/trash">Trash</a></span></div></td>
         <td>${author}</td><td>${date}</td></tr>`,
    )
    .join('')
  return page(
    'Posts',
    `<div role="navigation" aria-label="Main menu"><ul>${menu}</ul></div>
     <div><h1>Posts</h1>${search('/posts', q)}
     <table><thead><tr><td><input type="checkbox" id="cb-all"><label for="cb-all">Select All</label></td>
       <th scope="col">Title</th><th scope="col">Author</th><th scope="col">Date</th></tr></thead><tbody>${body}</tbody></table></div>`,
  )
}

const ARTICLES = [
  ['Printer tips', 'Keep the tray full.'],
  ['Holiday plan', 'Book two weeks ahead.'],
  ['Printer history', 'From Gutenberg on.'],
]

export function articleCards(q: string): string {
  const hits = ARTICLES.map((a, i) => [...a, String(i)]).filter(
    ([title]) => !q || title!.toLowerCase().includes(q.toLowerCase()),
  )
  const cards = hits
    .map(
      ([title, text, i]) =>
        `<article><h2><a href="/blog/${i}">${title}</a></h2><p>${text}</p><p>Posted by Ada</p></article>`,
    )
    .join('')
  const recent = ARTICLES.map(([title], i) => `<li><a href="/blog/${i}">${title}</a></li>`).join('')
  return page(
    'Blog',
    `<header id="masthead"><h1>Team blog</h1></header>
     <main><h2>${q ? `Search results for “${q}”` : 'Latest posts'}</h2>${search('/blog', q)}${cards}</main>
     <aside aria-label="Sidebar"><h2>Recent posts</h2><ul>${recent}</ul></aside>`,
  )
}

const MESSAGES = [
  ['Alice', 'Printer broken', 'Mar 3'],
  ['Bob', 'Lunch on Friday', 'Mar 4'],
  ['Carol', 'Printer on fire', 'Mar 5'],
]

export function messageGrid(q: string): string {
  const hits = MESSAGES.filter(([, subject]) => !q || subject!.toLowerCase().includes(q.toLowerCase()))
  const rows = hits
    .map(
      ([from, subject, date], i) =>
        `<div role="row"><div role="gridcell"><input type="checkbox" aria-label="Select"></div>
         <div role="gridcell">${from}</div><div role="gridcell"><a href="/mail/${i}">${subject}</a></div>
         <div role="gridcell">${date}</div></div>`,
    )
    .join('')
  const folders = ['Inbox', 'Sent', 'Trash'].map((f) => `<li role="treeitem">${f}</li>`).join('')
  return page(
    'Inbox',
    `<ul role="tree" aria-label="Folders">${folders}</ul>
     <div>${search('/mail', q)}<div role="grid" aria-label="Message list">${rows}</div></div>`,
  )
}
