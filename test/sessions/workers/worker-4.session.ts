import { sessionSuite } from './session-suite.js'

sessionSuite('worker-4', 6, '2024-04-01T04:00:00.000Z')
