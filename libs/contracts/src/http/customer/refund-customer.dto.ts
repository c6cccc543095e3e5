import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { CustomerBaseDto } from './customer-base.dto';

/** The customer requesting a refund, POST /v2/refund (specification §2.2, "Customer (refund)"). */
export class RefundCustomerDto extends CustomerBaseDto {
  @IsOptionalTimestamp('When the customer registered (Unix time).') registrationTime?: number;
}
