// Orage (held-out set, bench/native-split.md): Xfce's calendar, GTK 3. Its appointments are one
// iCalendar file, ~/.local/share/orage/orage.ics (XDG_DATA_HOME), its settings ~/.config/orage/oragerc.
// The home is seeded with a few appointments of someone who uses it every week; the jobs' effects
// are read by parsing the .ics file's VEVENTs.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NativeRunningApp, NativeThirdPartyApp } from '../types.ts'
import { orageJobs } from './jobs.ts'

export interface StoredEvent {
  uid: string
  summary: string
  /** The day it starts, YYYY-MM-DD. */
  date: string
  /** Its start time HH:MM, or undefined for an all-day appointment. */
  start?: string
  /** Its properties as stored, one line each (unfolded), to tell whether it changed. */
  lines: string[]
}

/** The VEVENTs of an iCalendar file, in file order. */
export function parseEvents(ics: string): StoredEvent[] {
  // Lines longer than 75 octets are folded: a line starting with a space continues the one before.
  const lines = ics
    .replace(/\r\n/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n')
  const events: StoredEvent[] = []
  let current: string[] | undefined
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') current = []
    else if (line === 'END:VEVENT' && current) {
      const prop = (name: string) => {
        const found = current!.find((l) => l.startsWith(`${name}:`) || l.startsWith(`${name};`))
        return found?.slice(found.indexOf(':') + 1)
      }
      const text = (v: string) => v.replace(/\\n/gi, '\n').replace(/\\([,;\\])/g, '$1')
      const start = prop('DTSTART') ?? ''
      const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2}))?/.exec(start)
      events.push({
        uid: prop('UID') ?? '',
        summary: text(prop('SUMMARY') ?? ''),
        date: m ? `${m[1]}-${m[2]}-${m[3]}` : '',
        ...(m?.[4] ? { start: `${m[4]}:${m[5]}` } : {}),
        lines: current,
      })
      current = undefined
    } else current?.push(line)
  }
  return events
}

export interface OrageApp extends NativeRunningApp {
  /** The appointments as Orage stored them. */
  events(): StoredEvent[]
}

/** A day `days` from today, YYYY-MM-DD (local time, as Orage shows its calendar). */
export function dayFromToday(days: number): string {
  const d = new Date()
  d.setDate(d.getDate() + days)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}
const icsDate = (day: string) => day.replaceAll('-', '')

/** The seeded appointments: a weekly routine around today, as a person's calendar has. */
function seed(): string {
  const stamp = '20260105T090000Z'
  const event = (uid: string, summary: string, day: string, from: string, to: string, location?: string) => [
    'BEGIN:VEVENT',
    `UID:Orage-${uid}@localhost`,
    `DTSTAMP:${stamp}`,
    `CREATED:${stamp}`,
    `LAST-MODIFIED:${stamp}`,
    `SUMMARY:${summary}`,
    ...(location ? [`LOCATION:${location}`] : []),
    'CLASS:PUBLIC',
    'TRANSP:OPAQUE',
    `DTSTART:${icsDate(day)}T${from}00`,
    `DTEND:${icsDate(day)}T${to}00`,
    'END:VEVENT',
  ]
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Xfce//Orage//EN',
    ...event('seed-1', 'Dentist', dayFromToday(-3), '0830', '0915', 'Elm Street Dental'),
    ...event('seed-2', 'Team standup', dayFromToday(1), '0930', '0945'),
    ...event('seed-3', 'Lunch with Priya', dayFromToday(2), '1230', '1330', 'Café Lune'),
    ...event('seed-4', 'Yoga class', dayFromToday(6), '1800', '1900'),
    'END:VCALENDAR',
    '',
  ].join('\r\n')
}

function oragerc(data: string): string {
  return [
    '#Created by Orage',
    '',
    '[PARAMETERS]',
    'Timezone=Etc/UTC',
    'Archive limit=0',
    `Archive file=${data}/orage_archive.ics`,
    `Orage file=${data}/orage.ics`,
    'Sound application=play',
    'Main window X=0',
    'Main window Y=0',
    'Main window size X=228',
    'Main window size Y=199',
    'Eventlist window pos X=0',
    'Eventlist window pos Y=0',
    'Eventlist window X=500',
    'Eventlist window Y=350',
    'Eventlist extra days=0',
    'Eventlist only first=false',
    'Dayview window pos X=0',
    'Dayview window pos Y=0',
    'Dayview window X=690',
    'Dayview window Y=390',
    'Dayview week mode=true',
    'Show Main Window Menu=true',
    'Select Always Today=false',
    'Show borders=true',
    'Show heading=true',
    'Show day names=true',
    'Show weeks=true',
    'Show todos=true',
    'Show event days=1',
    'Show in pager=true',
    'Show in systray=true',
    'Show in taskbar=true',
    'Start visible=true',
    'Start minimized=false',
    'Set sticked=true',
    'Set ontop=false',
    'Own icon file=/usr/share/icons/hicolor/160x160/apps/org.xfce.orage.xpm',
    'Own icon row1 data=%a',
    'Own icon row2 data=%d',
    'Own icon row3 data=%b',
    'XIcal week start day=6',
    'Show days=false',
    'Foreign file count=0',
    'Use notify foreign alarm=false',
    'Priority list limit=8',
    'Use wakeup timer=true',
    'Always quit=false',
    'File close delay=600',
    '',
  ].join('\n')
}

export const app: NativeThirdPartyApp<OrageApp> = {
  name: 'orage',
  kind: 'calendar, appointments (GTK 3)',
  async start(home) {
    const dir = join(home.env.XDG_DATA_HOME!, 'orage')
    mkdirSync(dir, { recursive: true })
    const file = join(dir, 'orage.ics')
    writeFileSync(file, seed())
    // Settings as Orage writes them on quitting, for someone who keeps its window on screen
    // ("Start visible"): launching it shows the calendar window, not only a tray icon.
    const settings = join(home.env.XDG_CONFIG_HOME!, 'orage')
    mkdirSync(settings, { recursive: true })
    writeFileSync(join(settings, 'oragerc'), oragerc(dir))
    return {
      name: 'orage',
      url: `file://${file}`,
      spec: { executable: 'orage' },
      dataFiles: [file],
      events: () => parseEvents(readFileSync(file, 'utf8')),
      async stop() {},
    }
  },
  jobs: orageJobs,
}
