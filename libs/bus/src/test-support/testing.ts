/** What other libraries' tests may use of the bus's test support (`@ringfence/bus/testing`). */
export { InMemoryEventLogStore } from './in-memory-event-log.store';
export { startBusControllers } from '../nest/start-bus-controllers';
