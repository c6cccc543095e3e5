import { IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '@ringfence/contracts';

export class CasePathDto {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) caseId!: string;
}

export class PaymentPathDto {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) transactionId!: string;
}
