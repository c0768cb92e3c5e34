/**
 * The Windows parts are built and checked here without Windows: the UI Automation helper is C#
 * compiled with Debian's Mono compiler and run under Mono (its protocol loop and error paths),
 * and the agent's MSI is made with wixl and inspected with msitools.
 */
import { ensureDebianPackages } from './debian-packages.ts'

await ensureDebianPackages('The Windows helper and installer tests', [
  ['/usr/bin/mcs', 'mono-mcs'],
  ['/usr/bin/mono', 'mono-runtime'],
  ['/usr/lib/mono/4.5/System.Drawing.dll', 'libmono-system-drawing4.0-cil'],
  ['/usr/bin/wixl', 'wixl'],
  ['/usr/bin/msiinfo', 'msitools'],
  ['/usr/bin/osslsigncode', 'osslsigncode'],
])
