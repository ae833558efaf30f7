export { parseDateTime, type DateTimeParseResult } from './parse-datetime.js'
export { formatTimestamp, formatInstant } from './format-timestamp.js'
export { parseDuration, describeDuration } from './duration.js'
