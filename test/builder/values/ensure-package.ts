// Tests start the real apps they need; on a clean machine (CI runs as root) the Debian package is
// installed first, the way scripts/ensure-chromium.ts installs Chromium. Elsewhere a missing
// package is a clear failure that says what to install, never a silent skip.
import { existsSync } from 'node:fs'

export async function ensureDebianPackage(binary: string, pkg: string): Promise<void> {
  if (existsSync(binary)) return
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
  if (!canApt) throw new Error(`${binary} is missing: install it (sudo apt-get install -y ${pkg})`)
  const apt = (args: string[]) =>
    Bun.spawn(['apt-get', ...args], {
      stdout: 'ignore',
      stderr: 'pipe',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).exited
  const install = ['install', '-y', '--no-install-recommends', pkg]
  if ((await apt(install)) !== 0 && ((await apt(['update'])) !== 0 || (await apt(install)) !== 0))
    throw new Error(`apt-get could not install ${pkg}`)
  if (!existsSync(binary)) throw new Error(`${pkg} is installed but ${binary} is still missing`)
}
