/**
 * The Windows parts are built and checked here without Windows: the UI Automation helper is C#
 * compiled with Debian's Mono compiler and run under Mono (its protocol loop and error paths),
 * and the agent's MSI is made with wixl and inspected with msitools. The helper is compiled against
 * .NET Framework 4.8's reference assemblies (mono-devel's 4.8-api) and its IL is checked against
 * them with Mono.Cecil (libmono-cecil-private-cil): scripts/check-helper-il.ts.
 */
import { ensureDebianPackages } from './debian-packages.ts'

await ensureDebianPackages('The Windows helper and installer tests', [
  ['/usr/bin/mcs', 'mono-mcs'],
  ['/usr/bin/mono', 'mono-runtime'],
  ['/usr/lib/mono/4.5/System.Drawing.dll', 'libmono-system-drawing4.0-cil'],
  ['/usr/lib/mono/4.8-api/mscorlib.dll', 'mono-devel'],
  ['/usr/lib/mono/gac/Mono.Cecil/0.11.0.0__0738eb9f132ed756/Mono.Cecil.dll', 'libmono-cecil-private-cil'],
  ['/usr/bin/wixl', 'wixl'],
  ['/usr/bin/msiinfo', 'msitools'],
  ['/usr/bin/osslsigncode', 'osslsigncode'],
  // The agent's exe is started under Wine (test/installer/wine.ts), with a MinGW-built stand-in
  // for the one system DLL Wine 8 lacks.
  ['/usr/lib/wine/wine64', 'wine64'],
  ['/usr/bin/x86_64-w64-mingw32-gcc', 'gcc-mingw-w64-x86-64-posix'],
])
