import { Command } from 'commander'
import { VERSION } from '../version.ts'
import { registerAgent } from './agent.ts'
import { registerAudit } from './audit.ts'
import { registerBackup } from './backup.ts'
import { registerDesktops } from './desktops.ts'
import { registerJobs } from './jobs.ts'
import { registerKeys } from './keys.ts'
import { registerServe } from './serve.ts'
import { registerUsers } from './users.ts'
import { registerWebhooks } from './webhooks.ts'

export function buildCli(): Command {
  const program = new Command('deskhook')
    .description('deskhook: desktop work as HTTP endpoints, on a box you own')
    .version(VERSION)
    // Program options only before the command: `jobs export --version 3` means the job's version.
    .enablePositionalOptions()
    .showHelpAfterError('(add --help for usage)')
  registerServe(program)
  registerKeys(program)
  registerJobs(program)
  registerDesktops(program)
  registerAgent(program)
  registerWebhooks(program)
  registerUsers(program)
  registerBackup(program)
  registerAudit(program)
  return program
}
