import { CustomerRequestDto } from '../http/customer/customer.request.dto';

/**
 * `ringfence.ingest.customer.updated.v1`: a customer payload the gateway accepted, as sent,
 * with every time normalised to epoch milliseconds.
 */
export class CustomerUpdatedEvent extends CustomerRequestDto {}
