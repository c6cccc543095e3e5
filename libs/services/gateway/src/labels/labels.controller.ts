import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  CustomerLabelRequestDto,
  CustomerLabelsResponseDto,
  LabelAppliedResponseDto,
  LabelUndoDto,
  LegacyLabelRequestDto,
  SupplierLabelRequestDto,
  SupplierLabelsResponseDto,
} from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { CustomerLabelPathDto, SUBJECT_ID_PARAM, SupplierLabelPathDto } from './label-path.dto';
import { LabelsUseCase } from './labels.use-case';
import { LabelUndoUseCase } from './label-undo.use-case';
import { deprecationHeaders, successorLabelRequest } from './legacy-label';

const APPLY_DESCRIPTION = [
  'A review replaces the previous label of its category; `UNREVIEWED` clears it. Every review is kept in the audit log (who, when, from what to what, why).',
  'Labels may be applied to identifiers the service has not seen yet.',
  'The answer is `{eventTime}`: when the review was applied, ISO 8601 UTC with milliseconds and `Z`.',
  'A 400 names the failing field: `review: must be one of …` for an unknown value or one the category does not allow, and for a request without `review`.',
].join(' ');

const UNDO_DESCRIPTION =
  'Sets the category back to its label before the last change (none: UNREVIEWED), as a new review by the caller, so the audit log keeps the change and its undo (comment `undo of <review>`), with the same events and callbacks as any review. `data: {category, review, undone, eventTime}`. A 409 when the category has no change to undo.';
const UNDO_ANSWER = {
  type: 'object',
  properties: {
    status: { type: 'integer' },
    timestamp: { type: 'integer' },
    data: { type: 'object', properties: { category: { type: 'string' }, review: { type: 'string' }, undone: { type: 'string' }, eventTime: { type: 'string', format: 'date-time' } } },
  },
} as const;

@ApiTags('Labels')
@ApiSecurity('apiKey')
@Controller('v2')
export class LabelsController {
  constructor(
    private readonly labels: LabelsUseCase,
    private readonly undo: LabelUndoUseCase,
  ) {}

  @SecretKeyRoute()
  @Post('customer/:customerId/labels')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Label a customer (manual review)',
    description: `Categories PAYMENT_FRAUD and REFUND_ABUSE. An omitted category is inferred from the review (PAYMENT_FRAUD for UNREVIEWED). POTENTIALLY_FRAUDSTER and POTENTIALLY_GENUINE are refused (400) unless enabled for the account. ${APPLY_DESCRIPTION}`,
  })
  @ApiParam({ name: 'customerId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ type: LabelAppliedResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  labelCustomer(
    @CurrentPrincipal() principal: Principal,
    @Param() path: CustomerLabelPathDto,
    @Body() body: CustomerLabelRequestDto,
    @Req() request: FastifyRequest,
  ): Promise<LabelAppliedResponseDto> {
    return this.labels.apply(principal, 'customer', path.customerId, body, String(request.id));
  }

  @SecretKeyRoute()
  @Post('label/customer')
  @HttpCode(200)
  @ApiOperation({
    deprecated: true,
    summary: 'Label a customer: the deprecated legacy label event',
    description: [
      'Deprecated (specification §9.2): use POST /v2/customer/{customerId}/labels, which this route is: `{timestamp, label: {customerId, label, comment?, reviewer?}}` is applied there as `{category: PAYMENT_FRAUD, review: label, comment, reviewer}`, with the same rules, audit log, label events and review callbacks, and the same answer.',
      '`label` is FRAUDSTER, GENUINE or UNREVIEWED (which clears the label); `timestamp` is accepted and not used.',
      'Every answer carries `Deprecation: @1795910400` (RFC 9745: deprecated since 2026-11-29) and `Link: </v2/customer/{customerId}/labels>; rel="successor-version"`.',
    ].join(' '),
  })
  @ApiOkResponse({ type: LabelAppliedResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  labelCustomerLegacy(
    @CurrentPrincipal() principal: Principal,
    @Body() body: LegacyLabelRequestDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LabelAppliedResponseDto> {
    const { customerId, request: successor } = successorLabelRequest(body);
    // Set first: an error answer (a 400 from labelling, a 429) keeps them too.
    void reply.headers(deprecationHeaders(customerId));
    return this.labels.apply(principal, 'customer', customerId, successor, String(request.id));
  }

  @SecretKeyRoute()
  @Post('customer/:customerId/labels/undo')
  @HttpCode(200)
  @ApiOperation({ summary: "Undo a customer label's last change", description: UNDO_DESCRIPTION })
  @ApiParam({ name: 'customerId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ schema: UNDO_ANSWER })
  @ApiErrorResponses(400, 401, 403, 409, 429, 503)
  undoCustomer(@CurrentPrincipal() principal: Principal, @Param() path: CustomerLabelPathDto, @Body() body: LabelUndoDto, @Req() request: FastifyRequest) {
    return this.undo.undo(principal, 'customer', path.customerId, body.category, String(request.id));
  }

  @SecretKeyRoute()
  @Post('supplier/:supplierId/labels/undo')
  @HttpCode(200)
  @ApiOperation({ summary: "Undo a supplier label's last change", description: UNDO_DESCRIPTION })
  @ApiParam({ name: 'supplierId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ schema: UNDO_ANSWER })
  @ApiErrorResponses(400, 401, 403, 409, 429, 503)
  undoSupplier(@CurrentPrincipal() principal: Principal, @Param() path: SupplierLabelPathDto, @Body() body: LabelUndoDto, @Req() request: FastifyRequest) {
    return this.undo.undo(principal, 'supplier', path.supplierId, body.category, String(request.id));
  }

  @SecretKeyRoute()
  @Get('customer/:customerId/labels')
  @ApiOperation({
    summary: "Read a customer's labels and their audit log",
    description:
      '`data.labels` holds the current label of each category that has one (a cleared category is absent); `data.history` every review applied, newest last. An identifier without labels answers empty ones.',
  })
  @ApiParam({ name: 'customerId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ type: CustomerLabelsResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  readCustomer(@CurrentPrincipal() principal: Principal, @Param() path: CustomerLabelPathDto, @Req() request: FastifyRequest) {
    return this.labels.read(principal, 'customer', path.customerId, String(request.id));
  }

  @SecretKeyRoute()
  @Post('supplier/:supplierId/labels')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Label a supplier (manual review)',
    description: `Category SUPPLIER_FRAUD (may be omitted): FRAUDULENT, GENUINE or UNREVIEWED. ${APPLY_DESCRIPTION}`,
  })
  @ApiParam({ name: 'supplierId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ type: LabelAppliedResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  labelSupplier(
    @CurrentPrincipal() principal: Principal,
    @Param() path: SupplierLabelPathDto,
    @Body() body: SupplierLabelRequestDto,
    @Req() request: FastifyRequest,
  ): Promise<LabelAppliedResponseDto> {
    return this.labels.apply(principal, 'supplier', path.supplierId, body, String(request.id));
  }

  @SecretKeyRoute()
  @Get('supplier/:supplierId/labels')
  @ApiOperation({
    summary: "Read a supplier's label and its audit log",
    description: '`data.labels.SUPPLIER_FRAUD` is the current label when there is one; `data.history` every review applied, newest last.',
  })
  @ApiParam({ name: 'supplierId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ type: SupplierLabelsResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  readSupplier(@CurrentPrincipal() principal: Principal, @Param() path: SupplierLabelPathDto, @Req() request: FastifyRequest) {
    return this.labels.read(principal, 'supplier', path.supplierId, String(request.id));
  }
}
