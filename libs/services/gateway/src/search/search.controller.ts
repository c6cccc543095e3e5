import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { SearchQueryDto, SearchResponseDto } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { SearchUseCase } from './search.use-case';

const SEARCH_DESCRIPTION = [
  'Finds the customers and suppliers of the key\'s data set by their id or by what they were seen with: an e-mail (case-insensitively), a phone number, a card (`BIN…last4`, also written `411111 1111`, or its instrument id), a device id, an IP address.',
  'Without `kind`, `q` is read as every kind it can be (an e-mail as an e-mail and an id, digits as a phone, an address as an IP address, a BIN and last four as a card; any text as an id); each subject is answered once, by its most specific reading (`matched`).',
  'Ids, e-mails, phones, devices and instruments are looked up in the graph (every payload that named them); IP addresses and BIN…last4 among what the decisions saw (the checkpoints\' payloads).',
  'A write answered 2xx before this request is found. Exact matches only, each an index lookup.',
].join(' ');

/** `GET /v2/search`: the console's search box, through the public API like any integration. */
@ApiTags('Search')
@ApiSecurity('apiKey')
@Controller('v2/search')
export class SearchController {
  constructor(private readonly searches: SearchUseCase) {}

  @SecretKeyRoute()
  @Get()
  @ApiOperation({ summary: 'Search customers and suppliers', description: SEARCH_DESCRIPTION })
  @ApiOkResponse({ type: SearchResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  search(@CurrentPrincipal() principal: Principal, @Query() query: SearchQueryDto, @Req() request: FastifyRequest): Promise<SearchResponseDto> {
    return this.searches.search(principal, query, String(request.id));
  }
}
