import { IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '@ringfence/contracts';

// Fastify has percent-decoded the segment already (`cus%2F1` arrives as `cus/1`); the limit is
// on the decoded identifier, as stored.

/** The OpenAPI description of such a path identifier, for every route that takes one. */
export const SUBJECT_ID_PARAM = {
  schema: { type: 'string', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH },
  description: `Percent-encode it in the path (\`cus%2F1\` is the identifier \`cus/1\`); 1 to ${MAX_IDENTIFIER_LENGTH} characters once decoded.`,
} as const;

export class CustomerLabelPathDto {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId!: string;
}

export class SupplierLabelPathDto {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) supplierId!: string;
}
