// Debian's Syncthing (1.19, a file-sync daemon whose web GUI is an AngularJS single-page app: its
// folders and remote devices are panels that unfold, and each is added or edited in a modal dialog
// with tabs) run the way one person would run it on a laptop, but shut off from the world: a fresh
// home in a temp dir made by `syncthing generate`, its config.xml edited before the start so that
// nothing reaches outward (no global or local discovery, no relays, no NAT traversal, usage
// reporting declined, no crash reports, no auto-upgrade), the sync protocol listening on loopback
// only, the GUI on a free loopback port in 18400–18499 without a sign-in, and no default folder, so
// the start state is known. The notification about the GUI having no password is acknowledged.
//
// Seeding and the readers go through Syncthing's own REST API with the API key (X-API-Key), in a
// child Bun (samples, live inputs and checks are synchronous).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureDebianPackage } from '../../builder/values/ensure-package.ts'
import type { RunningApp } from '../../gauntlet/types.ts'

const SYNCTHING = '/usr/bin/syncthing'

export interface StoredFolder {
  id: string
  label: string
  path: string
  /** The device ids the folder is shared with (this device's own among them). */
  devices: string[]
}
export interface StoredDevice {
  id: string
  name: string
}
export interface NewFolder {
  label: string
  /** The Folder ID; made like the GUI's own ("abcde-fghij") when not given. */
  id?: string
  /** Under the run's data dir when not given. */
  path?: string
  /** Names of remote devices (already added) to share the folder with. */
  sharedWith?: string[]
}

export interface Syncthing extends RunningApp {
  /** Where the seeded folders live (each a dir of it); a job's new folders go there too. */
  dataDir: string
  /** This device's own id. */
  myId: string
  /** The folders of Syncthing's configuration, read through its REST API. */
  folders(): StoredFolder[]
  /** The remote devices of Syncthing's configuration (not this device), through its REST API. */
  devices(): StoredDevice[]
  /** Adds remote devices by name (a made-up device id each), through the REST API; returns their ids. */
  addDevices(names: string[]): string[]
  /** Adds folders through the REST API; returns their folder ids. */
  addFolders(folders: NewFolder[]): string[]
}

/** A free loopback port in 18400–18499 (a bind test), none of `taken`. */
function freePortInRange(taken: number[]): number {
  const start = 18400 + Math.floor(Math.random() * 100)
  for (let i = 0; i < 100; i++) {
    const port = 18400 + ((start - 18400 + i) % 100)
    if (taken.includes(port)) continue
    try {
      const probe = Bun.listen({ hostname: '127.0.0.1', port, socket: { data() {} } })
      probe.stop(true)
      return port
    } catch {}
  }
  throw new Error('syncthing: no free port in 18400–18499')
}

/** Sets the text of every `<tag>…</tag>` in the XML (the element must be there). */
function setElement(xml: string, tag: string, value: string): string {
  const re = new RegExp(`<${tag}>[^<]*</${tag}>`, 'g')
  if (!re.test(xml)) throw new Error(`syncthing: config.xml has no <${tag}>`)
  return xml.replace(re, `<${tag}>${value}</${tag}>`)
}

/** A folder id made as the Add Folder dialog makes one: two groups of five lowercase letters and digits. */
function folderId(): string {
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789'
  const group = () =>
    Array.from({ length: 5 }, () => chars[Math.floor(Math.random() * chars.length)]).join('')
  return `${group()}-${group()}`
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
/** A well-formed device id (52 base32 characters of a random hash, each 13 with its Luhn check character). */
function deviceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  let bits = ''
  for (const b of bytes) bits += b.toString(2).padStart(8, '0')
  let plain = ''
  for (let i = 0; i < 52; i++)
    plain += BASE32[Number.parseInt(bits.slice(i * 5, i * 5 + 5).padEnd(5, '0'), 2)]
  const luhn = (s: string) => {
    let factor = 1
    let sum = 0
    for (const ch of s) {
      let addend = factor * BASE32.indexOf(ch)
      factor = factor === 2 ? 1 : 2
      addend = Math.floor(addend / 32) + (addend % 32)
      sum += addend
    }
    return BASE32[(32 - (sum % 32)) % 32]
  }
  let full = ''
  for (let i = 0; i < 4; i++) {
    const part = plain.slice(i * 13, i * 13 + 13)
    full += part + luhn(part)
  }
  return full.match(/.{7}/g)!.join('-')
}

/** Calls the REST API from a child Bun: one request per entry, the JSON answers in order. */
const REST_SCRIPT = `
const [base, key, calls] = process.argv.slice(-3)
const out = []
for (const [method, path, body] of JSON.parse(calls)) {
  const res = await fetch(base + path, {
    method,
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) { console.error(method + ' ' + path + ': HTTP ' + res.status + ' ' + text); process.exit(1) }
  out.push(text ? JSON.parse(text) : null)
}
console.log(JSON.stringify(out))`

export async function startSyncthing(): Promise<Syncthing> {
  await ensureDebianPackage(SYNCTHING, 'syncthing')
  const dir = mkdtempSync(join(tmpdir(), 'thirdparty-syncthing-'))
  const home = join(dir, 'home')
  const dataDir = join(dir, 'data')
  mkdirSync(dataDir)
  let server: Bun.Subprocess | undefined
  const stop = async () => {
    if (server) {
      try {
        process.kill(-server.pid, 'SIGTERM')
      } catch {}
      const ended = await Promise.race([server.exited.then(() => true), Bun.sleep(10_000).then(() => false)])
      try {
        process.kill(-server.pid, 'SIGKILL')
      } catch {}
      if (!ended) await server.exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    const env = { ...process.env, STNODEFAULTFOLDER: '1', STNOUPGRADE: '1', STNORESTART: '1' }
    const generate = Bun.spawnSync(
      [SYNCTHING, 'generate', `--home=${home}`, '--no-default-folder', '--skip-port-probing'],
      { env, stdout: 'pipe', stderr: 'pipe' },
    )
    const generated = `${generate.stdout.toString()}${generate.stderr.toString()}`
    const myId = /Device ID:\s*([A-Z0-9-]{63})/.exec(generated)?.[1]
    if (generate.exitCode !== 0 || !myId)
      throw new Error(`syncthing: generate failed: ${generated.slice(-1500)}`)

    const port = freePortInRange([])
    const listenPort = freePortInRange([port])
    const apiKey = `deskhook-${crypto.randomUUID()}`
    const configPath = join(home, 'config.xml')
    let xml = readFileSync(configPath, 'utf8')
    xml = xml.replace(/(<gui [^>]*>\s*)<address>[^<]*<\/address>/, `$1<address>127.0.0.1:${port}</address>`)
    xml = setElement(xml, 'apikey', apiKey)
    xml = setElement(xml, 'listenAddress', `tcp://127.0.0.1:${listenPort}`)
    xml = setElement(xml, 'globalAnnounceEnabled', 'false')
    xml = setElement(xml, 'localAnnounceEnabled', 'false')
    xml = setElement(xml, 'relaysEnabled', 'false')
    xml = setElement(xml, 'natEnabled', 'false')
    xml = setElement(xml, 'urAccepted', '-1')
    xml = setElement(xml, 'urSeen', '3')
    xml = setElement(xml, 'crashReportingEnabled', 'false')
    xml = setElement(xml, 'autoUpgradeIntervalH', '0')
    xml = setElement(xml, 'startBrowser', 'false')
    // The "GUI has no password" notice, acknowledged (the GUI is on loopback only).
    xml = setElement(xml, 'unackedNotificationID', '')
    // New folders default under the run's data dir (the Add Folder dialog fills in label there).
    xml = xml.replace(/(<defaults>\s*<folder [^>]*?)path="[^"]*"/, `$1path="${dataDir}"`)
    writeFileSync(configPath, xml)
    if (!xml.includes(`<address>127.0.0.1:${port}</address>`) || !xml.includes(`path="${dataDir}"`))
      throw new Error('syncthing: config.xml was not rewritten as expected')

    // Its own session (setsid): stop() ends it and anything it started, as one group.
    server = Bun.spawn(
      [
        'setsid',
        SYNCTHING,
        'serve',
        `--home=${home}`,
        '--no-browser',
        '--no-restart',
        '--no-upgrade',
        `--gui-address=127.0.0.1:${port}`,
        `--logfile=${join(dir, 'syncthing.log')}`,
      ],
      { cwd: dir, env: { ...env, HOME: dir }, stdout: 'ignore', stderr: 'ignore' },
    )
    const url = `http://127.0.0.1:${port}/`
    const deadline = Date.now() + 60_000
    // Polling a daemon that is starting: there is no event to wait on.
    for (;;) {
      const up = await fetch(`${url}rest/system/ping`, { headers: { 'X-API-Key': apiKey } }).then(
        (r) => r.ok,
        () => false,
      )
      if (up) break
      if (server.exitCode !== null || Date.now() > deadline)
        throw new Error(`syncthing did not answer on ${url} (see ${dir}/syncthing.log)`)
      await Bun.sleep(100)
    }

    const rest = <T>(calls: [method: string, path: string, body?: unknown][]): T[] => {
      const run = Bun.spawnSync([process.execPath, '-e', REST_SCRIPT, url, apiKey, JSON.stringify(calls)], {
        stdout: 'pipe',
        stderr: 'pipe',
      })
      if (run.exitCode !== 0)
        throw new Error(`syncthing: REST call failed: ${run.stderr.toString().slice(-1000)}`)
      return JSON.parse(run.stdout.toString()) as T[]
    }
    type RawFolder = { id: string; label: string; path: string; devices: { deviceID: string }[] }
    const folders = (): StoredFolder[] =>
      rest<RawFolder[]>([['GET', '/rest/config/folders']])[0]!.map((f) => ({
        id: f.id,
        label: f.label,
        path: f.path,
        devices: f.devices.map((d) => d.deviceID),
      }))
    const devices = (): StoredDevice[] =>
      rest<{ deviceID: string; name: string }[]>([['GET', '/rest/config/devices']])[0]!
        .filter((d) => d.deviceID !== myId)
        .map((d) => ({ id: d.deviceID, name: d.name }))

    // Nothing else in the config: no folder, no remote device.
    if (folders().length || devices().length) throw new Error('syncthing: the fresh config is not empty')

    return {
      name: 'syncthing',
      url,
      dataDir,
      myId,
      folders,
      devices,
      addDevices(names) {
        const known = devices()
        const fresh = names.filter((n) => !known.some((d) => d.name === n))
        if (fresh.length) {
          const [defaults] = rest<Record<string, unknown>>([['GET', '/rest/config/defaults/device']])
          rest(
            fresh.map((name) => [
              'POST',
              '/rest/config/devices',
              { ...defaults, deviceID: deviceId(), name },
            ]),
          )
        }
        const stored = devices()
        return names.map((n) => {
          const found = stored.find((d) => d.name === n)
          if (!found) throw new Error(`syncthing: device ${n} was not stored`)
          return found.id
        })
      },
      addFolders(wanted) {
        const known = folders()
        const byName = new Map(devices().map((d) => [d.name, d.id]))
        const fresh = wanted.filter((f) => !known.some((k) => k.label === f.label))
        if (fresh.length) {
          const [defaults] = rest<Record<string, unknown>>([['GET', '/rest/config/defaults/folder']])
          rest(
            fresh.map((f) => {
              const id = f.id ?? folderId()
              const path = f.path ?? join(dataDir, f.label.replace(/[^\w.-]+/g, '-'))
              const shared = (f.sharedWith ?? []).map((name) => {
                const device = byName.get(name)
                if (!device) throw new Error(`syncthing: no device named ${name}`)
                return device
              })
              const devices = [myId, ...shared].map((deviceID) => ({
                deviceID,
                introducedBy: '',
                encryptionPassword: '',
              }))
              return ['POST', '/rest/config/folders', { ...defaults, id, label: f.label, path, devices }]
            }),
          )
        }
        const stored = folders()
        return wanted.map((w) => {
          const found = stored.find((f) => f.label === w.label)
          if (!found) throw new Error(`syncthing: folder ${w.label} was not stored`)
          return found.id
        })
      },
      stop,
    }
  } catch (err) {
    await stop()
    throw err
  }
}
