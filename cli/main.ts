#!/usr/bin/env node
/**
 * The `market-candles` command: one entry for every command. Each command is a thin adapter over
 * src/ (the SDK) and mocks/ (the reference service), resolving with an exit code (cli/exit-codes.ts);
 * a {@link UsageError} from any of them is reported here, in one style.
 */
import { closest } from '../src/internal/known-keys.js'
import { EXIT } from './exit-codes.js'
import { USAGE } from './usage.js'
import { UsageError } from './usage-error.js'
import { packageVersion } from './version.js'

interface Command {
  run(argv: readonly string[]): Promise<number>
  usage(): Promise<string>
}

/*
 * Each command's code is imported when it is chosen: a long `export` runs in a worker, so its main
 * thread needs only the worker's starter and the arguments, and no command pays for another's
 * modules (the conformance command's ajv, the service's, the export's). A usage text is read only
 * after a usage error.
 */
const COMMANDS: Record<string, Command> = {
  serve: {
    run: async (argv) => (await import('./serve/run-serve.js')).runServe(argv),
    usage: async () => (await import('./serve/args.js')).SERVE_USAGE,
  },
  export: {
    run: async (argv) => (await import('./export/threads/run-command.js')).runExportCommand(argv),
    usage: async () => (await import('./export/flags/args.js')).EXPORT_USAGE,
  },
  conformance: {
    run: async (argv) => (await import('./conformance/run-conformance.js')).runConformance(argv),
    usage: async () => (await import('./conformance/args.js')).CONFORMANCE_USAGE,
  },
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
    const guess = closest(command.replace(/^-+/, ''), Object.keys(COMMANDS))
    console.error(`market-candles: unknown command '${command}'${guess ? `; did you mean '${guess}'?` : ''}\n\n${USAGE}`)
    return EXIT.usage
  }
  try {
    return await chosen.run(rest)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`market-candles ${command}: ${error.message}\n\n${await chosen.usage()}`)
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
