#!/usr/bin/env node
/**
 * The `market-candles` command: one entry for every command. Each command is a thin adapter over
 * src/ (the SDK) and mocks/ (the reference service), resolving with an exit code (cli/exit-codes.ts);
 * a {@link UsageError} from any of them is reported here, in one style.
 */
import { CONFORMANCE_USAGE, runConformance } from './conformance/index.js'
import { EXIT } from './exit-codes.js'
import { runExportInWorker, EXPORT_USAGE } from './export/index.js'
import { runServe, SERVE_USAGE } from './serve/index.js'
import { USAGE } from './usage.js'
import { UsageError } from './usage-error.js'
import { packageVersion } from './version.js'

interface Command {
  run(argv: readonly string[]): Promise<number>
  usage: string
}

const COMMANDS: Record<string, Command> = {
  serve: { run: runServe, usage: SERVE_USAGE },
  export: { run: runExportInWorker, usage: EXPORT_USAGE },
  conformance: { run: (argv) => runConformance(argv), usage: CONFORMANCE_USAGE },
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE)
    return command === undefined ? EXIT.usage : EXIT.ok
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    console.log(packageVersion())
    return EXIT.ok
  }
  const chosen = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined
  if (chosen === undefined) {
    console.error(`market-candles: unknown command '${command}'\n\n${USAGE}`)
    return EXIT.usage
  }
  try {
    return await chosen.run(rest)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`market-candles ${command}: ${error.message}\n\n${chosen.usage}`)
    return EXIT.usage
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(EXIT.failure)
  },
)
