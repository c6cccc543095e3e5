import { ApiProperty, OmitType } from '@nestjs/swagger';
import { RegistrationOutcomeDto } from '../http/registration/registration.dto';
import { IsRequiredNested } from '../validation/nested.decorator';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { ConnectRequestDto } from '../http/connect/connect.request.dto';
import { PayoutRequestDto } from '../http/payout/payout.request.dto';
import { PspDisputeRequestDto } from '../http/psp/psp-dispute.request.dto';
import { RefundRequestDto } from '../http/refund/refund.request.dto';
import { RegistrationRequestDto } from '../http/registration/registration.request.dto';
import { SupplierRequestDto } from '../http/supplier/supplier.request.dto';
import { VoucherRedemptionRequestDto } from '../http/voucher/voucher-redemption.request.dto';
import { VoucherRequestDto } from '../http/voucher/voucher.request.dto';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';

/*
 * The ingest topics carry what the merchant sent, as validated, with every time normalised to
 * epoch milliseconds (ADR-0001): the payload of each event is the request body itself, plus
 * what the gateway adds (named below). They are the warehouse feed of accepted data.
 */

/** The breached-credentials verdict of a registration (never the hash). */
export class CredentialVerdict {
  @ApiProperty({ example: false }) @IsBoolean() usernameBreached!: boolean;
  @ApiProperty({ example: false }) @IsBoolean() passwordBreached!: boolean;
}

/** `ringfence.ingest.supplier.updated.v1`: POST /v2/supplier. */
export class SupplierUpdatedEvent extends SupplierRequestDto {}

/**
 * `ringfence.ingest.registration.submitted.v1`: POST /v2/registration, without the password hash
 * (ADR-0006: it never reaches the bus), with the id the gateway gave the attempt.
 */
export class RegistrationSubmittedEvent extends OmitType(RegistrationRequestDto, ['registration'] as const) {
  @IsRequiredNested(() => RegistrationOutcomeDto, 'The registration attempt, without the password hash.') registration!: RegistrationOutcomeDto;

  @ApiProperty({ example: 'reg_01JCZ4B7K2', description: 'The id the gateway gave the attempt (also in the answer).' })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) registrationId!: string;
  /** The gateway's breached-credentials verdict: the only trace of the password on the bus. */
  @ApiProperty({ type: () => CredentialVerdict, description: 'The gateway\'s breached-credentials verdict; the password hash itself never reaches the bus.' })
  @IsDefined() @ValidateNested() @Type(() => CredentialVerdict) credentialStatus!: CredentialVerdict;
}

/** `ringfence.ingest.payout.requested.v1`: POST /v2/payout. */
export class PayoutRequestedEvent extends PayoutRequestDto {}

/** `ringfence.ingest.refund.requested.v1`: POST /v2/refund. */
export class RefundRequestedEvent extends RefundRequestDto {}

/** `ringfence.ingest.voucher.created.v1`: POST /v2/voucher. */
export class VoucherCreatedEvent extends VoucherRequestDto {}

/** `ringfence.ingest.voucher-redemption.submitted.v1`: POST /v2/paymentmethod/voucher. */
export class VoucherRedemptionSubmittedEvent extends VoucherRedemptionRequestDto {}

/** `ringfence.ingest.dispute.updated.v1`: POST /psp/dispute and /psp/dispute/async. */
export class DisputeUpdatedEvent extends PspDisputeRequestDto {}

/** `ringfence.ingest.connect.linked.v1`: POST /v2/connect (the links it asks for). */
export class ConnectLinkedEvent extends ConnectRequestDto {}

