import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  ValidateNested,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import { LOOKUP_QUERY_INDICATORS, LookupIndicatorQueryDto } from '../http/lookup/lookup.query.dto';
import { LookupAddRequestDto, LookupChargebackDto, LookupManualReviewDto } from '../http/lookup/lookup.request.dto';
import { IsUnixTime } from '../validation/timestamp.decorator';
import type { LookupAddedDto, LookupDeletedDto, LookupIndicatorsDto } from '../http/lookup/lookup.response.dto';

/**
 * The envelope `subjectId` of every lookup message: one key per account and data set, so a
 * warehouse consuming the feed sees an account's additions and deletions in the order they
 * happened (a deletion overtaking the addition it undoes would resurrect the indicator).
 */
export const LOOKUP_SUBJECT_ID = 'lookup-indicators';

/** The request names at least one indicator (ADR-0009). */
export function NamesAnIndicator(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'namesAnIndicator',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { message: `must name at least one of ${LOOKUP_QUERY_INDICATORS.join(', ')}`, ...options },
      validator: {
        validate(value: unknown): boolean {
          if (typeof value !== 'object' || value === null) return true; // the type rules report it
          return LOOKUP_QUERY_INDICATORS.some((name) => (value as Record<string, unknown>)[name] !== undefined);
        },
      },
    });
  };
}

/**
 * `ringfence.rpc.lookup.add-indicators.v1`: the POST body as the gateway accepted it, every time
 * already in epoch milliseconds.
 */
export class AddLookupIndicatorsRequest extends LookupAddRequestDto {}
export type AddLookupIndicatorsReply = LookupAddedDto;

/** `ringfence.rpc.lookup.read-indicators.v1`: the GET query, times in epoch milliseconds. */
export class ReadLookupIndicatorsRequest {
  @IsDefined() @NamesAnIndicator() @ValidateNested() @Type(() => LookupIndicatorQueryDto) indicators!: LookupIndicatorQueryDto;
  /** IP-address evidence seen before this time (epoch ms) is left out. */
  @IsOptional() @IsInt() @IsUnixTime() ipFromTime?: number;
  @IsBoolean() limitIndustry!: boolean;
}
export type ReadLookupIndicatorsReply = LookupIndicatorsDto;

/** `ringfence.rpc.lookup.delete-indicators.v1`: the DELETE query. */
export class DeleteLookupIndicatorsRequest {
  @IsDefined() @NamesAnIndicator() @ValidateNested() @Type(() => LookupIndicatorQueryDto) indicators!: LookupIndicatorQueryDto;
}
export type DeleteLookupIndicatorsReply = LookupDeletedDto;

/** One indicator as the feed carries it: its kind (the answer names), normalised value and seen time. */
export class LookupIndicatorRecord {
  @ApiProperty({ enum: LOOKUP_QUERY_INDICATORS }) @IsIn(LOOKUP_QUERY_INDICATORS) kind!: (typeof LOOKUP_QUERY_INDICATORS)[number];
  @ApiProperty({ example: 'ada@example.com', description: 'Normalised as the lookup stores it.' }) @IsString() value!: string;
  /** Epoch milliseconds. */
  @ApiProperty({ type: 'integer', example: 1763800000000, description: 'Epoch milliseconds.' }) @IsInt() seenAt!: number;
}

/**
 * `ringfence.ingest.lookup.indicators-added.v1`: the lookup service stored these indicators of
 * the account, each with all of the evidence (the warehouse feed of the account's own data).
 */
export class LookupIndicatorsAddedEvent {
  /** The POST's timestamp, epoch milliseconds. */
  @ApiProperty({ type: 'integer', example: 1763800000000, description: "The POST's timestamp, epoch milliseconds." }) @IsInt() timestamp!: number;
  @ApiProperty({ type: () => [LookupIndicatorRecord] }) @IsArray() @ValidateNested({ each: true }) @Type(() => LookupIndicatorRecord) indicators!: LookupIndicatorRecord[];
  @ApiProperty({ type: () => [LookupChargebackDto] }) @IsArray() @ValidateNested({ each: true }) @Type(() => LookupChargebackDto) chargebacks!: LookupChargebackDto[];
  @ApiProperty({ type: () => [LookupManualReviewDto] }) @IsArray() @ValidateNested({ each: true }) @Type(() => LookupManualReviewDto) manualReviews!: LookupManualReviewDto[];
}

export class LookupIndicatorRef {
  @ApiProperty({ enum: LOOKUP_QUERY_INDICATORS }) @IsIn(LOOKUP_QUERY_INDICATORS) kind!: (typeof LOOKUP_QUERY_INDICATORS)[number];
  @ApiProperty({ example: 'ada@example.com' }) @IsString() value!: string;
}

/** `ringfence.ingest.lookup.indicators-deleted.v1`: the account deleted its records of these indicators. */
export class LookupIndicatorsDeletedEvent {
  @ApiProperty({ type: () => [LookupIndicatorRef] }) @IsArray() @ValidateNested({ each: true }) @Type(() => LookupIndicatorRef) indicators!: LookupIndicatorRef[];
  /** Pieces of evidence removed, per indicator name (as the DELETE answer says). */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, example: { email: 2 }, description: 'Pieces of evidence removed, per indicator name.' })
  @IsObject() deleted!: Record<string, number>;
}
