/**
 * The native-driver tests (test/agent/native/) run a headless desktop (scripts/test-desktop.ts)
 * and real GTK apps from Debian's packages, driven through AT-SPI by the Python helper. Installs
 * what is missing when this process may (root with apt-get, as in CI); otherwise says what to install.
 */
import { existsSync } from 'node:fs'

const PACKAGES: [path: string, pkg: string][] = [
  ['/usr/bin/Xvfb', 'xvfb'],
  ['/usr/libexec/at-spi-bus-launcher', 'at-spi2-core'],
  ['/usr/bin/dbus-launch', 'dbus-x11'],
  ['/usr/bin/dbus-send', 'dbus'],
  ['/usr/lib/python3/dist-packages/pyatspi', 'python3-pyatspi'],
  ['/usr/lib/python3/dist-packages/gi', 'python3-gi'],
  ['/usr/lib/x86_64-linux-gnu/girepository-1.0/Atspi-2.0.typelib', 'gir1.2-atspi-2.0'],
  ['/usr/lib/python3/dist-packages/Xlib', 'python3-xlib'],
  ['/usr/lib/python3/dist-packages/PIL', 'python3-pil'],
  ['/usr/bin/xdotool', 'xdotool'],
  // The apps the tests drive.
  ['/usr/bin/yad', 'yad'],
  ['/usr/bin/zenity', 'zenity'],
  ['/usr/bin/gtk3-widget-factory', 'gtk-3-examples'],
  ['/usr/bin/osmo', 'osmo'],
  ['/usr/bin/homebank', 'homebank'],
]

// The typelib's folder depends on the architecture; any multiarch folder will do.
const present = (path: string) =>
  existsSync(path) ||
  (path.includes('x86_64-linux-gnu') && existsSync(path.replace('x86_64-linux-gnu', 'aarch64-linux-gnu')))
const missing = PACKAGES.filter(([path]) => !present(path)).map(([, pkg]) => pkg)
if (missing.length === 0) process.exit(0)

const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
if (!canApt) {
  console.error(`The native desktop tests need Debian packages: sudo apt-get install -y ${missing.join(' ')}`)
  process.exit(1)
}
console.log(`Installing the native test desktop from Debian packages: ${missing.join(', ')}`)
const apt = (args: string[]) =>
  Bun.spawn(['apt-get', '-o', 'DPkg::Lock::Timeout=900', ...args], {
    stdout: 'inherit',
    stderr: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  }).exited
const install = ['install', '-y', '--no-install-recommends', ...missing]
if ((await apt(install)) !== 0) {
  if ((await apt(['update'])) !== 0 || (await apt(install)) !== 0) {
    console.error(`apt-get could not install ${missing.join(' ')}`)
    process.exit(1)
  }
}
