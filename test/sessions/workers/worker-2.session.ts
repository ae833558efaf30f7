import { sessionSuite } from './session-suite.js'

sessionSuite('worker-2', 4, '2022-02-01T02:00:00.000Z')
