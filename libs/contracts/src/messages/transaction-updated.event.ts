import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { OrderDto } from '../http/order/order.dto';
import { PspTransactionRequestDto } from '../http/psp/psp-transaction.request.dto';
import { IsOptionalNested } from '../validation/nested.decorator';
import { PSP_CHECKPOINTS, type PspCheckpoint } from '../checkpoints/checkpoint-names';

/**
 * `ringfence.ingest.transaction.updated.v1`: one update of a payment-processor transaction, as
 * sent (times in epoch milliseconds). It is also the request of the transaction checkpoint.
 */
export class TransactionUpdatedEvent extends PspTransactionRequestDto {
  /** The checkpoint asked for, if any (the /async path records its decision on the feed only). */
  @ApiPropertyOptional({
    enum: PSP_CHECKPOINTS,
    description: 'Present on updates sent to /psp/transaction/async with a checkpoint: the scoring service scores them for the decision feed.',
  })
  @IsOptional() @IsIn(PSP_CHECKPOINTS) checkpoint?: PspCheckpoint;

  /**
   * Only from the original service's POST /v2/checkout (its order) and /v2/transaction (its
   * `orderId`); /psp/transaction's body has none. Stored by orderId, with the transaction's customer.
   */
  @IsOptionalNested(() => OrderDto, 'The order paid for (POST /v2/checkout, /v2/transaction): stored by its orderId with the customer, and the transaction with the orderId.')
  order?: OrderDto;
}
