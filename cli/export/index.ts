export { runExport, type ExportIO } from './run-export.js'
export { EXPORT_USAGE } from './args.js'
