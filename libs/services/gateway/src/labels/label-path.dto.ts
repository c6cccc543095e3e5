import { IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '@ringfence/contracts';

// Fastify has percent-decoded the segment already (`cus%2F1` arrives as `cus/1`); the limit is
// on the decoded identifier, as stored.

export class CustomerLabelPathDto {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId!: string;
}

export class SupplierLabelPathDto {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) supplierId!: string;
}
