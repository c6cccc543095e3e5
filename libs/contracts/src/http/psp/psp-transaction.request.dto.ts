import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { CURRENCY_PATTERN, MAX_IDENTIFIER_LENGTH, MCC_PATTERN } from '../../validation/patterns';
import { IsTimestamp } from '../../validation/timestamp.decorator';

/** The payment-processor transaction (`transaction`, required) of POST /psp/transaction. */
export class PspTransactionDto {
  @ApiProperty({ example: 'tx-0001', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) transactionId!: string;
  @ApiPropertyOptional({ example: 'auth' }) @IsOptional() @IsString() type?: string;
  @ApiPropertyOptional({ example: 1999, description: 'Minor units, integer.' }) @IsOptional() @IsInt() amount?: number;
  @ApiPropertyOptional({ example: 'GBP' })
  @IsOptional() @IsString() @Matches(CURRENCY_PATTERN, { message: `must match ${CURRENCY_PATTERN.source}` }) currency?: string;
  @ApiPropertyOptional({ example: '5812', pattern: MCC_PATTERN.source })
  @IsOptional() @IsString() @Matches(MCC_PATTERN, { message: `must match ${MCC_PATTERN.source}` }) mcc?: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() success?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() partial?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsString() gateway?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() gatewayReference?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() parentTransactionId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() declineCode?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() merchantName?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() merchantCountryCode?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() mid?: string;
}

/** The optional PSP customer: `customerId`, `email`, `telephone` (further fields not shown). */
export class PspCustomerDto {
  @ApiPropertyOptional({ example: 'cus-61213' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() email?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() telephone?: string;
}

/** POST /psp/transaction and /psp/transaction/async. */
export class PspTransactionRequestDto {
  @IsTimestamp() timestamp!: number;
  @ApiProperty({ type: () => PspTransactionDto })
  @IsDefined() @ValidateNested() @Type(() => PspTransactionDto) transaction!: PspTransactionDto;
  @ApiPropertyOptional({ type: () => PspCustomerDto })
  @IsOptional() @ValidateNested() @Type(() => PspCustomerDto) customer?: PspCustomerDto;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() billingAddress?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() shippingAddress?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() device?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() paymentMethod?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() threeds?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() flightBooking?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() posTerminal?: Record<string, unknown>;
}
