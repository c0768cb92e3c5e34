#!/usr/bin/env bun
import { buildCli } from './cli/index.ts'

await buildCli().parseAsync(process.argv)
