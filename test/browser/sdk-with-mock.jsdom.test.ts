// @vitest-environment jsdom
import { sdkWithMockSuite } from './sdk-with-mock.suite.js'

sdkWithMockSuite('jsdom')
