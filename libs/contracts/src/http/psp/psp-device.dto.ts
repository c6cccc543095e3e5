import { IsOptionalKeyText, IsOptionalText } from '../../validation/scalar-fields.decorator';
import { IsOptionalIdentifier } from '../shared/common-fields';

/**
 * `device` of POST /psp/transaction (specification §2.2, "Device (PSP transaction)"). Omitted
 * when the device is shared, e.g. an in-store terminal. Note `lang`, where the v2 device says
 * `language`.
 */
export class PspDeviceDto {
  @IsOptionalIdentifier('dev-4f1c', 'The merchant\'s identifier of the device.') deviceId?: string;
  @IsOptionalKeyText('203.0.113.7') ipAddress?: string;
  @IsOptionalText('en-GB', 'Language of the device or browser.') lang?: string;
  @IsOptionalText('Apple') manufacturer?: string;
  @IsOptionalText('iPhone15,2') model?: string;
  @IsOptionalText('iOS 18.1') os?: string;
  @IsOptionalText('phone') type?: string;
  @IsOptionalText('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15') userAgent?: string;
}
