/** The contract test (suite.ts) of the verification example. */
import { contractSuite } from './suite.ts'

contractSuite('verification')
