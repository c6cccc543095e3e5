import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { CustomerTagsResponseDto } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CustomerLabelPathDto, SUBJECT_ID_PARAM } from '../labels/label-path.dto';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { CustomerTagsUseCase } from './customer-tags.use-case';

/**
 * The read of the original service's customer tag paths; `POST`/`DELETE /v2/tag/customer`,
 * which set and remove, are the `LegacyV2Controller`'s.
 */
@ApiTags('Other v2 paths (original service)')
@ApiSecurity('apiKey')
@Controller('v2')
export class CustomerTagsController {
  constructor(private readonly tags: CustomerTagsUseCase) {}

  @SecretKeyRoute()
  @Get('tag/customer/:customerId')
  @ApiOperation({
    summary: 'Read the tags of a customer (the original service’s tag path)',
    description: [
      'One of the original service’s other v2 paths (docs/api.md, "Other v2 paths of the original service"). Answers at the top level, as its client libraries read it: `{customerId, tagNames, tags, label}`.',
      '`tagNames` are the customer’s current tags (set by POST /v2/tag/customer, POST /v2/customer/{customerId}/tags or a customer object’s `tags`, and not removed since), `tags` the same as a map of name to true, `label` its PAYMENT_FRAUD label or UNREVIEWED.',
      'A write answered 2xx before this request is in the answer. A customer never tagged answers empty lists, not 404.',
    ].join(' '),
  })
  @ApiParam({ name: 'customerId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ type: CustomerTagsResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  read(@CurrentPrincipal() principal: Principal, @Param() path: CustomerLabelPathDto, @Req() request: FastifyRequest): Promise<CustomerTagsResponseDto> {
    return this.tags.read(principal, path.customerId, String(request.id));
  }
}
