import { IsRequiredNested } from '../../validation/nested.decorator';
import { IsTimestamp } from '../../validation/timestamp.decorator';
import { PspDisputeDto } from './psp-dispute.dto';

/** POST /psp/dispute and /psp/dispute/async (specification §4.4): a new dispute or an update of one. */
export class PspDisputeRequestDto {
  @IsTimestamp('When the update was valid: Unix time in seconds, milliseconds or nanoseconds (normalised by magnitude).')
  timestamp!: number;

  @IsRequiredNested(() => PspDisputeDto)
  dispute!: PspDisputeDto;
}
