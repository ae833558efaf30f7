/**
 * The `market-candles` command without its process: picks a command by the first argument and
 * resolves with its exit code (cli/exit-codes.ts); a {@link UsageError} from any command is
 * reported here, in one style. cli/main.ts (the package's bin) runs it on `process.argv` and exits
 * with the code; tests run it in process with their own output.
 */
import { closest } from '../src/internal/known-keys.js'
import { PROCESS_IO, type CliIo } from './cli-io.js'
import { EXIT } from './exit-codes.js'
import { USAGE } from './usage.js'
import { UsageError } from './usage-error.js'
import { packageVersion } from './version.js'

interface Command {
  /** Runs the command; the export command writes to the process's own streams, not `io`. */
  run(argv: readonly string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number>
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
    run: async (argv, io, env) => (await import('./serve/run-serve.js')).runServe(argv, io, env),
    usage: async () => (await import('./serve/args.js')).SERVE_USAGE,
  },
  export: {
    run: async (argv) => (await import('./export/threads/run-command.js')).runExportCommand(argv),
    usage: async () => (await import('./export/flags/args.js')).EXPORT_USAGE,
  },
  conformance: {
    run: async (argv, io, env) => (await import('./conformance/run-conformance.js')).runConformance(argv, { ...io, env }),
    usage: async () => (await import('./conformance/args.js')).CONFORMANCE_USAGE,
  },
}

/**
 * Runs `market-candles ARGV`; resolves with the exit code. Errors other than usage errors are
 * thrown. `env` is where `serve` and `conformance` read their MARKET_CANDLES_* variables.
 */
export async function runCli(argv: readonly string[], io: CliIo = PROCESS_IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.out(USAGE)
    return command === undefined ? EXIT.usage : EXIT.ok
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    io.out(packageVersion())
    return EXIT.ok
  }
  const chosen = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined
  if (chosen === undefined) {
    const guess = closest(command.replace(/^-+/, ''), Object.keys(COMMANDS))
    io.err(`market-candles: unknown command '${command}'${guess ? `; did you mean '${guess}'?` : ''}\n\n${USAGE}`)
    return EXIT.usage
  }
  try {
    return await chosen.run(rest, io, env)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.err(`market-candles ${command}: ${error.message}\n\n${await chosen.usage()}`)
    return EXIT.usage
  }
}
