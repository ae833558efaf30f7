import type { MockService } from './service.js'

/** The journal of a service, as the MSW helpers expose it beside the service. */
export type JournalView = Pick<MockService, 'requests' | 'clearRequests' | 'waitForRequests'>

/** The journal methods of `service`, bound, for a helper to spread into its handle. */
export const journalOf = (service: MockService): JournalView => ({
  requests: (filter) => service.requests(filter),
  clearRequests: () => service.clearRequests(),
  waitForRequests: (filter, options) => service.waitForRequests(filter, options),
})
