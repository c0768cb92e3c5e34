/**
 * The end-to-end tests drive Debian's Chromium. Installs it when it is missing and this process may
 * (root with apt-get, as in CI); otherwise says what to install. Never downloads a browser of its own.
 */
import { existsSync } from 'node:fs'

const CHROMIUM = process.env.DESKHOOK_CHROMIUM ?? '/usr/bin/chromium'
if (existsSync(CHROMIUM)) process.exit(0)

const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
if (!canApt) {
  console.error(
    `Chromium is missing at ${CHROMIUM}. Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set DESKHOOK_CHROMIUM.`,
  )
  process.exit(1)
}
console.log('Installing Chromium from Debian packages (needed by the end-to-end tests)…')
const apt = (args: string[]) =>
  Bun.spawn(['apt-get', ...args], {
    stdout: 'inherit',
    stderr: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  }).exited
if ((await apt(['install', '-y', '--no-install-recommends', 'chromium'])) !== 0) {
  if (
    (await apt(['update'])) !== 0 ||
    (await apt(['install', '-y', '--no-install-recommends', 'chromium'])) !== 0
  ) {
    console.error('apt-get could not install chromium')
    process.exit(1)
  }
}
