export { runServe } from './run-serve.js'
export { SERVE_USAGE, parseServeArgs, DEFAULT_PORT, type ServeArgs } from './args.js'
export { loadDataFile, DataFileError } from './load-data.js'
