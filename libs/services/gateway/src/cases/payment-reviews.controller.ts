import { Body, Controller, Delete, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { CaseAnswerDto, MAX_IDENTIFIER_LENGTH, PaymentReviewDto } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { PaymentPathDto } from './case-path.dto';
import { CasesUseCase } from './cases.use-case';

const TRANSACTION_ID_PARAM = { name: 'transactionId', schema: { type: 'string', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH } } as const;
const WHERE_IT_GOES =
  'Recorded in the customer\'s newest case\'s audit trail (when the customer has a case), published on `ringfence.label.payment.reviewed.v1` (the warehouse feed) and sent to the data set\'s callback URL as `payment.reviewed`. It changes no label and no decision.';

/** Per-payment reviews (ADR-0017): an analyst's decision about one payment, beside the customer's labels. */
@ApiTags('Cases')
@ApiSecurity('apiKey')
@Controller('v2/payments')
export class PaymentReviewsController {
  constructor(private readonly cases: CasesUseCase) {}

  @SecretKeyRoute()
  @Post(':transactionId/review')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Review a payment',
    description: `approve, decline, fraud or not_fraud, replacing the payment's current review. The payment must have been sent to this data set (404 otherwise). \`data: {transactionId, customerId, decision, actor, at, comment}\`. ${WHERE_IT_GOES}`,
  })
  @ApiParam(TRANSACTION_ID_PARAM)
  @ApiCreatedResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  review(@CurrentPrincipal() principal: Principal, @Param() path: PaymentPathDto, @Body() body: PaymentReviewDto, @Req() request: FastifyRequest) {
    return this.cases.reviewPayment(principal, path.transactionId, body, String(request.id));
  }

  @SecretKeyRoute()
  @Delete(':transactionId/review')
  @ApiOperation({
    summary: "Withdraw a payment's review (undo)",
    description: `The current review is withdrawn (\`data\` is it, with \`withdrawnAt\` and \`withdrawnBy\`); the history keeps both. A 409 when the payment has no review. ${WHERE_IT_GOES}`,
  })
  @ApiParam(TRANSACTION_ID_PARAM)
  @ApiOkResponse({ type: CaseAnswerDto })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429, 503)
  withdraw(@CurrentPrincipal() principal: Principal, @Param() path: PaymentPathDto, @Req() request: FastifyRequest) {
    return this.cases.withdrawPaymentReview(principal, path.transactionId, String(request.id));
  }
}
