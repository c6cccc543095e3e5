import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsOptional, IsString } from 'class-validator';
import { IsOptionalFlag, IsOptionalText } from '../../validation/scalar-fields.decorator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';

/**
 * `threeds` of POST /psp/transaction: the 3-D Secure result when authentication was attempted
 * (specification §2.2, "3-D Secure result"). The EMV 3DS codes are passed through as strings.
 */
export class ThreeDSecureDto {
  @IsOptionalText('2.2.0', 'Protocol version.') version?: string;
  @IsOptionalText('02', 'EMV 3DS device channel (01 app, 02 browser, 03 3RI).') deviceChannel?: string;
  @IsOptionalText('Y', 'EMV 3DS transaction status (Y, N, U, A, C, D, R, I).') transStatus?: string;
  @IsOptionalText('01', 'EMV 3DS reason for the transaction status.') transStatusReason?: string;
  @IsOptionalText('01', 'EMV 3DS challenge cancelation indicator, when a challenge was cancelled.') challengeCancel?: string;

  @ApiPropertyOptional({ type: [String], example: ['01'], description: 'The 3DS requestor challenge indicators sent.' })
  @IsOptional() @IsArray() @IsString({ each: true, message: 'each item must be a string' }) requestorChallengeIndList?: string[];

  @IsOptionalFlag(true, 'Whether liability for fraud shifted to the issuer.') liabilityShifted?: boolean;
  @IsOptionalTimestamp('When authentication started (Unix time).') startTime?: number;
  @IsOptionalTimestamp('When authentication ended (Unix time).') endTime?: number;
  @IsOptionalText('Y', 'Whether the merchant is on the cardholder\'s trusted list (EMV 3DS whiteListStatus).') whiteListStatus?: string;
  @IsOptionalText('01', 'Who set whiteListStatus (EMV 3DS whiteListStatusSource).') whiteListStatusSource?: string;
}
