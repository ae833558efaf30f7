export { runExport, type ExportIO } from './run-export.js'
export { runExportInWorker } from './threads/run-in-worker.js'
export { runExportCommand } from './threads/run-command.js'
export { EXPORT_USAGE } from './flags/args.js'
