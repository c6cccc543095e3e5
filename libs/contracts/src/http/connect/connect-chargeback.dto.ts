import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { IsOptionalAmount } from '../../validation/scalar-fields.decorator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalCurrency } from '../shared/common-fields';

/**
 * The chargeback of POST /v2/connect (specification §2.2, "Chargeback (connect)"), linked to the
 * request's customer. It makes the customer a fraudster unless forgiven by `nonFraud: true`
 * (ADR-0004).
 */
export class ConnectChargebackDto {
  @ApiProperty({
    example: 'cb-88120',
    minLength: 1,
    maxLength: MAX_IDENTIFIER_LENGTH,
    description: 'Required: the chargeback node of the graph is identified by it, and a later update names it.',
  })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) chargebackId!: string;
  @ApiPropertyOptional({ example: 'stripe' }) @IsOptional() @IsString() gateway?: string;
  @ApiPropertyOptional({ example: 'dp_1Q2w3E4r5T6y' }) @IsOptional() @IsString() gatewayReference?: string;
  @ApiPropertyOptional({ example: 'fraudulent' }) @IsOptional() @IsString() reason?: string;
  @ApiPropertyOptional({ example: 'LOST', description: 'Value seen: `LOST`.' }) @IsOptional() @IsString() status?: string;
  @IsOptionalAmount(4599, 'Minor units, integer.') amount?: number;
  @IsOptionalCurrency() currency?: string;
  @IsOptionalTimestamp('When the chargeback was raised (Unix time).') disputeTime?: number;
  @ApiPropertyOptional({ example: false, description: 'Liability moved to the issuer (e.g. after 3-D Secure).' })
  @IsOptional() @IsBoolean() liabilityShifted?: boolean;
  @ApiPropertyOptional({ example: false, description: '`true`: not a fraud chargeback; it does not make the customer a fraudster.' })
  @IsOptional() @IsBoolean() nonFraud?: boolean;
}
