import { test } from 'bun:test'
import { htmlPage, pageRig } from './helpers/page-rig.ts'

const rig = pageRig(() =>
  htmlPage(`<!doctype html><title>Admin</title><style>
  .menu li { float: left; position: relative; list-style: none; padding: 0 1em }
  .menu ul ul { visibility: hidden; position: absolute; top: 1.2em; left: 0 }
  .menu ul li:hover ul { visibility: visible }
</style><div class="menu"><ul>
  <li><a href="/users">User Functions</a><ul><li><a href="/create">Create Principal</a></li><li><a href="/resources">List Resources</a></li></ul></li>
  <li><a href="/help">Help</a></li>
</ul></div><h1 style="clear: both">Welcome</h1>`),
)
const show = (e: any, d = 0): string =>
  `${'  '.repeat(d)}${e.role} ${JSON.stringify(e.name)}\n${e.children.map((c: any) => show(c, d + 1)).join('')}`
test('dump', async () => {
  const w = await rig.driver.launch({ url: rig.server.url.href })
  console.log(show((await rig.driver.snapshot(w.id)).root))
}, 30000)
