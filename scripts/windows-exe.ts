/**
 * The Windows exe's own facts, set after `bun build --compile`: Bun sets the GUI subsystem itself
 * (`--windows-hide-console`) but writes its version resource and icon only when it runs on
 * Windows (`--windows-version` and the others refuse a cross-compile), so the build stamps them
 * here with resedit (docs/windows.md, "The exe"). resedit rebuilds the resource section, which it
 * does only when nothing but relocations follows it; Bun puts its bundle (`.bun`) last, so that
 * section is lifted off first and put back, byte for byte, at the new end.
 */
import * as ResEdit from 'resedit'

/**
 * The exe's four-part version: package.json's three, then a build number that grows with every
 * commit (the commit count, or DESKHOOK_BUILD_NUMBER), so support can tell two builds apart.
 */
export function windowsFileVersion(version: string, build = buildNumber()): [number, number, number, number] {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version)
  if (!match) throw new Error(`version ${version} is not major.minor.patch`)
  const parts = [Number(match[1]), Number(match[2]), Number(match[3]), build]
  if (parts.some((n) => n > 65535)) throw new Error(`version ${parts.join('.')} has a part above 65535`)
  return parts as [number, number, number, number]
}

export function buildNumber(): number {
  const given = process.env.DESKHOOK_BUILD_NUMBER
  if (given !== undefined) {
    if (!/^\d+$/.test(given) || Number(given) > 65535)
      throw new Error(`DESKHOOK_BUILD_NUMBER=${given} is not a number from 0 to 65535`)
    return Number(given)
  }
  const git = Bun.spawnSync(['git', 'rev-list', '--count', 'HEAD'], {
    cwd: import.meta.dir,
    stderr: 'ignore',
  })
  const count = Number(git.stdout.toString().trim())
  return git.exitCode === 0 && Number.isInteger(count) ? count % 65536 : 0
}

export interface ExeMetadata {
  /** Four numbers, e.g. 0.1.0.25331. */
  version: [number, number, number, number]
  productName: string
  companyName: string
  description: string
  copyright: string
  originalFilename: string
  /** An .ico file's bytes: replaces the runtime's own icon. */
  icon?: Uint8Array
}

interface Section {
  name: string
  virtualSize: number
  virtualAddress: number
  rawSize: number
  rawPointer: number
  /** Where its 40-byte header is in the file. */
  headerAt: number
}

interface Layout {
  optionalHeader: number
  sections: Section[]
  sectionAlignment: number
  fileAlignment: number
}

const align = (n: number, to: number) => Math.ceil(n / to) * to

function layout(bytes: Uint8Array): Layout {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint16(0, true) !== 0x5a4d) throw new Error('not a PE file (no MZ header)')
  const pe = view.getUint32(0x3c, true)
  if (view.getUint32(pe, true) !== 0x4550) throw new Error('not a PE file (no PE signature)')
  const count = view.getUint16(pe + 6, true)
  const optionalSize = view.getUint16(pe + 20, true)
  const optionalHeader = pe + 24
  if (view.getUint16(optionalHeader, true) !== 0x20b) throw new Error('not a 64-bit PE file (PE32+)')
  const sections: Section[] = []
  for (let i = 0; i < count; i++) {
    const at = optionalHeader + optionalSize + i * 40
    sections.push({
      name: new TextDecoder().decode(bytes.subarray(at, at + 8)).replace(/\0+$/, ''),
      virtualSize: view.getUint32(at + 8, true),
      virtualAddress: view.getUint32(at + 12, true),
      rawSize: view.getUint32(at + 16, true),
      rawPointer: view.getUint32(at + 20, true),
      headerAt: at,
    })
  }
  return {
    optionalHeader,
    sections,
    sectionAlignment: view.getUint32(optionalHeader + 32, true),
    fileAlignment: view.getUint32(optionalHeader + 36, true),
  }
}

/** What a test or a person checks of a built exe. */
export interface ExeFacts {
  /** 2: a GUI program (no console window); 3: a console program. */
  subsystem: number
  sections: string[]
  /** The version resource's strings (language 1033, Unicode), and its fixed file version. */
  strings: Record<string, string>
  fileVersion: string
  /** The icons the exe carries, by size in pixels. */
  iconSizes: number[]
}

export function exeFacts(bytes: Uint8Array): ExeFacts {
  const { optionalHeader, sections } = layout(bytes)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const resources = ResEdit.NtExecutableResource.from(ResEdit.NtExecutable.from(liftTrailing(bytes).head))
  const [info] = ResEdit.Resource.VersionInfo.fromEntries(resources.entries)
  const fixed = info?.fixedInfo
  const fileVersion = fixed
    ? [
        fixed.fileVersionMS >>> 16,
        fixed.fileVersionMS & 0xffff,
        fixed.fileVersionLS >>> 16,
        fixed.fileVersionLS & 0xffff,
      ].join('.')
    : ''
  const iconSizes = ResEdit.Resource.IconGroupEntry.fromEntries(resources.entries).flatMap((group) =>
    group.icons.map((icon) => icon.width || 256),
  )
  return {
    subsystem: view.getUint16(optionalHeader + 68, true),
    sections: sections.map((s) => s.name),
    strings: info?.getStringValues({ lang: 1033, codepage: 1200 }) ?? {},
    fileVersion,
    iconSizes,
  }
}

/** The sections after the resource and relocation sections, cut off the file, to be put back later. */
function liftTrailing(bytes: Uint8Array): {
  head: Uint8Array
  trailing: { section: Section; data: Uint8Array }[]
} {
  const { optionalHeader, sections } = layout(bytes)
  const resourceAt = sections.findIndex((s) => s.name === '.rsrc')
  if (resourceAt < 0) throw new Error('the exe has no resource section')
  const keep = sections.findIndex((s, i) => i > resourceAt && s.name !== '.reloc')
  if (keep < 0) return { head: bytes, trailing: [] }
  const trailing = sections.slice(keep)
  const last = sections[keep - 1]!
  const end = last.rawPointer + last.rawSize
  if (trailing.some((s) => s.rawPointer < end))
    throw new Error('a section after the resources lies inside the earlier ones: cannot lift it off')
  const fileEnd = Math.max(...sections.map((s) => s.rawPointer + s.rawSize))
  if (bytes.length > fileEnd)
    throw new Error('the exe carries data past its last section (a signature?): sign after stamping')
  // A copy (a Buffer's slice() would share the caller's bytes, and the headers are edited below).
  const head = new Uint8Array(end)
  head.set(bytes.subarray(0, end))
  const view = new DataView(head.buffer)
  const pe = view.getUint32(0x3c, true)
  view.setUint16(pe + 6, keep, true)
  for (const s of trailing) head.fill(0, s.headerAt, s.headerAt + 40)
  const { sectionAlignment } = layout(bytes)
  view.setUint32(optionalHeader + 56, align(last.virtualAddress + last.virtualSize, sectionAlignment), true)
  return {
    head,
    trailing: trailing.map((section) => ({
      section,
      data: bytes.subarray(section.rawPointer, section.rawPointer + section.rawSize),
    })),
  }
}

/** Puts lifted sections back after the (rebuilt) last one, same names, flags and bytes. */
function putBack(
  head: Uint8Array,
  original: Uint8Array,
  trailing: { section: Section; data: Uint8Array }[],
): Uint8Array {
  let bytes = head
  for (const { section, data } of trailing) {
    const now = layout(bytes)
    const last = now.sections.at(-1)!
    const headerAt = last.headerAt + 40
    if (headerAt + 40 > now.sections[0]!.rawPointer)
      throw new Error('no room in the headers to put a section back')
    const rawPointer = align(bytes.length, now.fileAlignment)
    const next = new Uint8Array(rawPointer + data.length)
    next.set(bytes)
    next.set(data, rawPointer)
    const view = new DataView(next.buffer)
    // The header as it was (name, characteristics), with its new place in memory and in the file.
    next.set(original.subarray(section.headerAt, section.headerAt + 40), headerAt)
    const virtualAddress = align(last.virtualAddress + last.virtualSize, now.sectionAlignment)
    view.setUint32(headerAt + 12, virtualAddress, true)
    view.setUint32(headerAt + 20, rawPointer, true)
    const pe = view.getUint32(0x3c, true)
    view.setUint16(pe + 6, now.sections.length + 1, true)
    view.setUint32(
      now.optionalHeader + 56,
      align(virtualAddress + section.virtualSize, now.sectionAlignment),
      true,
    )
    bytes = next
  }
  return bytes
}

/** The exe with deskhook's version resource (and icon), everything else as Bun built it. */
export function stampExe(bytes: Uint8Array, meta: ExeMetadata): Uint8Array {
  const { head, trailing } = liftTrailing(bytes)
  const exe = ResEdit.NtExecutable.from(head)
  const resources = ResEdit.NtExecutableResource.from(exe)
  // The runtime's own version resource goes; ours is the only one.
  resources.entries = resources.entries.filter((entry) => entry.type !== 16)
  const info = ResEdit.Resource.VersionInfo.createEmpty()
  info.lang = 1033
  const [a, b, c, d] = meta.version
  info.setFileVersion(a, b, c, d, 1033)
  info.setProductVersion(a, b, c, d, 1033)
  info.setStringValues(
    { lang: 1033, codepage: 1200 },
    {
      CompanyName: meta.companyName,
      FileDescription: meta.description,
      FileVersion: meta.version.join('.'),
      InternalName: meta.productName,
      LegalCopyright: meta.copyright,
      OriginalFilename: meta.originalFilename,
      ProductName: meta.productName,
      ProductVersion: meta.version.join('.'),
    },
  )
  info.outputToResourceEntries(resources.entries)
  if (meta.icon) {
    const icon = ResEdit.Data.IconFile.from(meta.icon)
    const groups = ResEdit.Resource.IconGroupEntry.fromEntries(resources.entries)
    const groupId = groups[0]?.id ?? 1
    const lang = groups[0]?.lang ?? 1033
    // Every icon group of the runtime's goes (and its images); ours takes the first one's id.
    resources.entries = resources.entries.filter((entry) => entry.type !== 14 && entry.type !== 3)
    ResEdit.Resource.IconGroupEntry.replaceIconsForResource(
      resources.entries,
      groupId,
      lang,
      icon.icons.map((item) => item.data),
    )
  }
  resources.outputResource(exe)
  return putBack(new Uint8Array(exe.generate()), bytes, trailing)
}
