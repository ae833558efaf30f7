export { jsonOf } from './json.js'
export { junitOf } from './junit.js'
export { summaryOf, type Report } from './report.js'
export { textOfResult, textSummary } from './text.js'
