import { CustomerRequestDto } from '../http/customer/customer.request.dto';
import { OrderDto } from '../http/order/order.dto';
import { IsOptionalNested } from '../validation/nested.decorator';

/**
 * `ringfence.ingest.customer.updated.v1`: a customer payload the gateway accepted, as sent,
 * with every time normalised to epoch milliseconds. Also the customer events of the original
 * service's other v2 paths (`/v2/order`, `/v2/login`, customer tags, their backfills), mapped
 * onto this shape by the gateway (docs/api.md, "Other v2 paths of the original service").
 */
export class CustomerUpdatedEvent extends CustomerRequestDto {
  /** Only from POST /v2/order: /v2/customer's body has no order (its validation drops one). */
  @IsOptionalNested(() => OrderDto, 'The order the customer placed (POST /v2/order); stored by its orderId with the customer.')
  order?: OrderDto;
}
