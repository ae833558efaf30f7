export { runExport, type ExportIO } from './run-export.js'
export { runExportInWorker } from './run-in-worker.js'
export { runExportCommand } from './run-command.js'
export { EXPORT_USAGE } from './flags/args.js'
