import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { registerDecorator, ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional, IsString, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { MutuallyExclusiveWith, RequiredUnless } from '../../validation/mutually-exclusive.decorator';
import { IsOptionalNested, IsRequiredNested } from '../../validation/nested.decorator';
import { ReadFromJson } from '../../validation/json-readings';
import { IsObjectWhenSent } from '../shared/object-when-sent';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalTimestamp, IsTimestamp } from '../../validation/timestamp.decorator';
import { PSP_CHECKPOINTS, type PspCheckpoint } from '../../checkpoints/checkpoint-names';
import { ConnectChargebackDto } from '../connect/connect-chargeback.dto';
import { CustomerDto } from '../customer/customer.dto';
import { OrderDto } from '../order/order.dto';
import { PspTransactionRequestDto } from '../psp/psp-transaction.request.dto';
import { IsOptionalEventType, IsOptionalIdentifier } from '../shared/common-fields';
import { DeviceDto } from '../shared/device.dto';
import { IsOptionalQueryBoolean, ExplainQueryDto } from '../shared/query-parameters';
import { IsTagMap } from '../shared/tags';
import { IsOptionalFlag, IsOptionalText, IsRequiredIdentifier } from '../../validation/scalar-fields.decorator';

/*
 * The other v2 paths of the original service (docs/api.md, "Other v2 paths of the original
 * service"). The specification shows none of their bodies, so each one is built from the
 * documented objects it carries (customer, order, PSP transaction, connect chargeback, device),
 * and the gateway turns it into the payload of an existing route: one table, one walker.
 */

/**
 * An order sent on its own names its `orderId`: it is stored (and later updates merge) by it.
 * On the order property, since the order object's own `orderId` is optional (as in a refund).
 */
function NamesOrderId(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'namesOrderId',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: 'must have an orderId (order.orderId: a string of 1 to 300 characters)' },
      validator: {
        validate: (value: unknown) => typeof value !== 'object' || value === null || typeof (value as { orderId?: unknown }).orderId === 'string',
      },
    });
  };
}

/**
 * The customer a customer event names: `customerId`, or a `customer` object (the v2 customer
 * endpoint's), exactly one of the two (as connect names its customer); the device likewise.
 */
abstract class CustomerEventDto {
  @IsTimestamp() timestamp!: number;

  @IsOptionalEventType() eventType?: string;

  @IsOptionalIdentifier('cus-61213', 'The customer. Required unless `customer` is sent; mutually exclusive with it.')
  customerId?: string;

  // Not @IsOptional: RequiredUnless must run when both are absent (as on connect).
  @ApiPropertyOptional({ type: () => CustomerDto, description: 'The customer with its details (the v2 customer shape). Mutually exclusive with `customerId`.' })
  @RequiredUnless('customerId') @IsObjectWhenSent() @MutuallyExclusiveWith('customerId') @ValidateNested() @Type(() => CustomerDto)
  customer?: CustomerDto;

  @IsOptionalNested(() => DeviceDto, 'The device used. Mutually exclusive with `deviceId`.') @MutuallyExclusiveWith('deviceId') device?: DeviceDto;

  @IsOptionalIdentifier('dev-4f1c', 'The device used. Mutually exclusive with `device`.') deviceId?: string;
}

/** POST /v2/order (and /v2/backfill/order): an order of a customer, stored by `orderId`. */
export class LegacyOrderRequestDto extends CustomerEventDto {
  @IsRequiredNested(() => OrderDto, 'The order (the specification’s order object); `orderId` is required.') @NamesOrderId() order!: OrderDto;
}

/** `login` of POST /v2/login: the attempt. Read for its outcome only; nothing of it is stored (see docs/api.md). */
export class LegacyLoginDto {
  @IsOptionalText('ada@example.com', 'The username typed; not stored.') username?: string;
  @IsOptionalIdentifier('cus-61213', 'The customer logging in (the original service repeats the top-level customerId here).') customerId?: string;
  @IsOptionalFlag(true, 'Whether the login succeeded.') success?: boolean;
}

/**
 * POST /v2/login (and /v2/backfill/login): a customer logging in from a device. Any further
 * fields of `login` (its authentication mechanism) are accepted and not kept.
 */
export class LegacyLoginRequestDto extends CustomerEventDto {
  @IsOptionalNested(() => LegacyLoginDto, 'The login attempt.') login?: LegacyLoginDto;
}

/**
 * POST /v2/transaction (and /v2/backfill/transaction): a payment attempt in the PSP transaction's
 * shape (the nearest the specification documents), with the customer and order it belongs to
 * named by id as the original service's transaction event names them.
 */
export class LegacyTransactionRequestDto extends PspTransactionRequestDto {
  @IsOptionalIdentifier('cus-61213', 'The customer paying, by id (the original service\'s form). Mutually exclusive with `customer`.') @MutuallyExclusiveWith('customer')
  customerId?: string;

  @IsOptionalIdentifier('ord-55120', 'The order paid for: the transaction is stored with it, and the order with the customer.') orderId?: string;
}

/**
 * POST /v2/checkout (and /v2/backfill/checkout): customer, order, payment method, device and
 * transaction in one body, as the original service's checkout sends them: the PSP transaction
 * shape (its `customer` the PSP one: `customerId`, `email`, `telephone` checked, the rest kept)
 * with the order added.
 */
export class LegacyCheckoutRequestDto extends PspTransactionRequestDto {
  @IsOptionalNested(() => OrderDto, 'The order being paid for; `orderId` is required when sent.') @NamesOrderId() order?: OrderDto;
}

/** A chargeback as the original chargeback path sends it: the connect chargeback's shape. */
export class LegacyChargebackDto extends ConnectChargebackDto {}

/**
 * POST /v2/chargeback (and /v2/backfill/chargeback): a chargeback of a customer. It is linked to
 * `customerId` and makes the customer a fraudster unless `nonFraud: true` (ADR-0004), exactly
 * as a connect chargeback does. A chargeback known only by its transaction is a PSP dispute
 * (`POST /psp/dispute`, `POST /v2/backfill/dispute`).
 */
export class LegacyChargebackRequestDto {
  @IsTimestamp() timestamp!: number;
  @IsOptionalEventType() eventType?: string;
  @IsRequiredIdentifier('cus-61213', 'The customer charged back.') customerId!: string;
  @IsRequiredNested(() => LegacyChargebackDto) chargeback!: LegacyChargebackDto;
}

/** A tag name: the key of the customer's `tags` map. */
const TAG_NAME = { minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH };

/**
 * POST /v2/customer/{customerId}/tags: sets tags on a customer, as the customer object's `tags`
 * does. `tags` (the specification's map of name to boolean; `false` removes) and `tagNames`
 * (the original service's list, each set true) may both be sent; at least one.
 */
export class CustomerTagsRequestDto {
  @IsOptionalTimestamp('When the tags were valid (Unix time, any precision); default: now. An older time does not overwrite a newer one.')
  timestamp?: number;

  // Not @IsOptional: RequiredUnless must run when both are absent.
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'boolean' }, example: { vip: true, staff: false }, description: 'Tag name to boolean; `false` removes the tag. Required unless `tagNames` is sent.' })
  @RequiredUnless('tagNames') @ValidateIf((body: CustomerTagsRequestDto) => body.tags !== undefined || body.tagNames === undefined) @IsTagMap()
  tags?: Record<string, boolean>;

  @ApiPropertyOptional({ type: [String], example: ['vip'], description: 'Tag names to set (true). Required unless `tags` is sent.', minItems: 1 })
  @IsOptional() @IsArray() @ArrayMinSize(1) @IsString({ each: true }) @MinLength(TAG_NAME.minLength, { each: true }) @MaxLength(TAG_NAME.maxLength, { each: true })
  tagNames?: string[];
}

/** POST /v2/tag/customer: the original service's own tags path, the customer in the body. */
export class TagCustomerRequestDto extends CustomerTagsRequestDto {
  @IsRequiredIdentifier('cus-61213', 'The customer tagged.') customerId!: string;
}

/** `a,b` or a repeated parameter, as one list of names; blanks dropped. Anything else is left for validation to refuse. */
function splitTagNames(value: unknown): unknown {
  const parts = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((part) => typeof part === 'string') ? (value as string[]) : undefined;
  return parts === undefined ? value : parts.flatMap((part) => part.split(',')).map((name) => name.trim()).filter((name) => name.length > 0);
}

/** DELETE /v2/customer/{customerId}/tags?tagName=a,b: the tags to remove (comma-separated, or the parameter repeated). */
export class CustomerTagsDeleteQueryDto {
  @ApiPropertyOptional({ type: 'string', example: 'vip,staff', description: 'Required: the tag names to remove, comma-separated (the parameter may also be repeated).' })
  @Transform(({ value }: { value: unknown }) => splitTagNames(value), { toClassOnly: true })
  @ReadFromJson({ convert: splitTagNames })
  @IsDefined({ message: 'is required' })
  @IsArray() @ArrayMinSize(1) @IsString({ each: true }) @MinLength(TAG_NAME.minLength, { each: true }) @MaxLength(TAG_NAME.maxLength, { each: true })
  tagName!: string[];
}

/**
 * `?score=true` of /v2/order and /v2/login: the original service scored any event on request;
 * here it asks the customer checkpoint with the same payload. Without it the event is only kept.
 */
export class LegacyScoreQueryDto extends ExplainQueryDto {
  @IsOptionalQueryBoolean('`true`: answer with the customer checkpoint’s recommendation; otherwise the event is only kept.') score?: boolean;
}

/**
 * The query of /v2/transaction and /v2/checkout: `?score=true` asks the transaction checkpoint at
 * the path's own moment (checkout: before authorisation; transaction: after), `checkpoint`
 * names it explicitly as on /psp/transaction.
 */
export class LegacyTransactionQueryDto extends LegacyScoreQueryDto {
  @ApiPropertyOptional({ enum: PSP_CHECKPOINTS, example: 'pspBeforeAuth', description: 'Score at this checkpoint (implies `score=true`).' })
  @IsOptional() @IsIn(PSP_CHECKPOINTS, { message: `must be one of ${PSP_CHECKPOINTS.join(', ')}` })
  checkpoint?: PspCheckpoint;
}

/** DELETE /v2/tag/customer?customerId=&tagName=: the original service's own path. */
export class TagCustomerDeleteQueryDto extends CustomerTagsDeleteQueryDto {
  @IsRequiredIdentifier('cus-61213', 'The customer whose tags are removed.') customerId!: string;
}
