import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { CustomerEvidenceResponseDto } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CustomerLabelPathDto as CustomerPathDto, SUBJECT_ID_PARAM } from '../labels/label-path.dto';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { EvidenceUseCase } from './evidence.use-case';

const EVIDENCE_DESCRIPTION = [
  'What the decisions about a customer saw, for an analyst: its payments (amount and currency in minor units as sent, success and decline code, card BIN, last four, issuing country and instrument id, IP address and its country, device and user agent, billing and shipping addresses, the newest decision, the disputes with their status), orders and refunds, successful spend per currency, the addresses, devices and IP addresses seen, and every dispute known.',
  'Made from the newest 100 decisions about the customer (`decisionsRead`) and its stored record, transactions and disputes (at most 48); newest first.',
  'A write answered 2xx before this request is in the answer. 404 when the data set has neither a record nor a decision of the customer.',
].join(' ');

/** `GET /v2/customer/:customerId/evidence`: the console's customer and case pages. */
@ApiTags('Customers')
@ApiSecurity('apiKey')
@Controller('v2')
export class EvidenceController {
  constructor(private readonly evidence: EvidenceUseCase) {}

  @SecretKeyRoute()
  @Get('customer/:customerId/evidence')
  @ApiOperation({ summary: "A customer's evidence: payments, cards, IPs, devices, disputes, spend", description: EVIDENCE_DESCRIPTION })
  @ApiParam({ name: 'customerId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ type: CustomerEvidenceResponseDto })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  customer(@CurrentPrincipal() principal: Principal, @Param() path: CustomerPathDto, @Req() request: FastifyRequest): Promise<CustomerEvidenceResponseDto> {
    return this.evidence.customer(principal, path.customerId, String(request.id));
  }
}
