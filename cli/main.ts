#!/usr/bin/env node
/**
 * The `market-candles` command: one entry for every command (cli/run-cli.ts picks one), each a thin
 * adapter over src/ (the SDK) and mocks/ (the reference service). The process exits with the
 * command's code (cli/exit-codes.ts).
 */
import { EXIT } from './exit-codes.js'
import { runCli } from './run-cli.js'

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(EXIT.failure)
  },
)
