import { IsOptionalKeyText } from '../../validation/scalar-fields.decorator';
import { OpenDto } from '../../validation/open-dto';
import { IsOptionalIdentifier } from '../shared/common-fields';

/**
 * The optional customer of POST /psp/transaction. The specification shows `customerId`, `email`
 * and `telephone` and says further fields exist without showing them: the three are checked, any
 * other field is kept as sent (`OpenDto`).
 */
export class PspCustomerDto extends OpenDto {
  @IsOptionalIdentifier('cus-61213', "The merchant's identifier of the customer paying.") customerId?: string;
  @IsOptionalKeyText('ada@example.com') email?: string;
  @IsOptionalKeyText('+447700900123') telephone?: string;
}
