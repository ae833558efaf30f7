/** How much the client logs, from nothing to every attempt. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug'

/** Where log lines go; `console` fits. Each line is a message and a plain object of its fields. */
export interface Logger {
  error(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  debug(message: string, fields?: Record<string, unknown>): void
}

export const LOG_LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug']

/** A logger that drops lines below its level; what the transport calls. */
export interface LevelLogger {
  readonly level: LogLevel
  enabled(level: Exclude<LogLevel, 'off'>): boolean
  log(level: Exclude<LogLevel, 'off'>, message: string, fields: Record<string, unknown>): void
}

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value)
}

/** The level and sink of a client; a logger that throws never fails a request. */
export function levelLogger(level: LogLevel, logger: Logger): LevelLogger {
  const rank = LOG_LEVELS.indexOf(level)
  const enabled = (at: Exclude<LogLevel, 'off'>) => rank >= LOG_LEVELS.indexOf(at)
  return {
    level,
    enabled,
    log(at, message, fields) {
      if (!enabled(at)) return
      try {
        logger[at](`market-candles: ${message}`, fields)
      } catch {
        // Logging is an observer: its failure must not change the request's outcome.
      }
    },
  }
}

/** Checks a `logger` option: an object with the four methods. */
export function checkLogger(logger: unknown): Logger {
  if (logger === null || typeof logger !== 'object' || !['error', 'warn', 'info', 'debug'].every((m) => typeof (logger as Record<string, unknown>)[m] === 'function')) {
    throw new TypeError('logger must be an object with error, warn, info and debug methods (console fits)')
  }
  return logger as Logger
}
