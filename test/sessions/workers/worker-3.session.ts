import { sessionSuite } from './session-suite.js'

sessionSuite('worker-3', 5, '2023-03-01T03:00:00.000Z')
