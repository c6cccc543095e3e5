import { IsTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalEventType } from '../shared/common-fields';
import { VoucherDto } from './voucher.dto';
import { IsRequiredNested } from '../../validation/nested.decorator';

/** POST /v2/voucher (specification §4.11): a new voucher code was created. */
export class VoucherRequestDto {
  @IsTimestamp() timestamp!: number;
  @IsOptionalEventType() eventType?: string;
  @IsRequiredNested(() => VoucherDto, 'The voucher created.') voucher!: VoucherDto;
}
