#!/usr/bin/env bun
import { buildCli } from './cli/index.ts'
import { debugRequested } from './config/index.ts'

try {
  await buildCli().parseAsync(process.argv)
} catch (err) {
  // Commands turn their failures into one line (cli/shared.ts run()); this is the last net for
  // anything outside them: still one line, the stack only when asked for.
  process.stderr.write(
    `deskhook: ${(err as Error)?.message ?? String(err)}${debugRequested() ? `\n${(err as Error)?.stack ?? ''}` : ' (DESKHOOK_DEBUG=1 shows where)'}\n`,
  )
  process.exit(70)
}
