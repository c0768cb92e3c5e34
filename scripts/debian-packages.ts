/**
 * Installs the Debian packages a part of the test suite needs when this process may (root with
 * apt-get, as in CI); otherwise says what to install and exits non-zero. Each package is named
 * with a file it installs, so what is present is not installed again.
 */
import { existsSync } from 'node:fs'

export async function ensureDebianPackages(
  purpose: string,
  packages: [path: string, pkg: string][],
): Promise<void> {
  // A typelib's folder depends on the architecture; any multiarch folder will do.
  const present = (path: string) =>
    existsSync(path) ||
    (path.includes('x86_64-linux-gnu') && existsSync(path.replace('x86_64-linux-gnu', 'aarch64-linux-gnu')))
  const missing = packages.filter(([path]) => !present(path)).map(([, pkg]) => pkg)
  if (missing.length === 0) return

  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')
  if (!canApt) {
    console.error(`${purpose} need Debian packages: sudo apt-get install -y ${missing.join(' ')}`)
    process.exit(1)
  }
  console.log(`Installing for ${purpose.toLowerCase()} from Debian packages: ${missing.join(', ')}`)
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
}
