import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  CustomerRecordResponseDto,
  NEIGHBOURHOOD_DEFAULT_DEPTH,
  NEIGHBOURHOOD_DEFAULT_LIMIT,
  NEIGHBOURHOOD_MAX_DEPTH,
  NEIGHBOURHOOD_MAX_LIMIT,
  SubjectNetworkQueryDto,
  SubjectNetworkResponseDto,
  SupplierRecordResponseDto,
} from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
// The identifier rule of the label routes (1 to 300 characters once percent-decoded): one rule for every path id.
import { CustomerLabelPathDto as CustomerPathDto, SUBJECT_ID_PARAM, SupplierLabelPathDto as SupplierPathDto } from '../labels/label-path.dto';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { SubjectsUseCase } from './subjects.use-case';


const RECORD_DESCRIPTION = [
  'Every field as stored: merged field by field from every payload that described it, whatever the endpoint (checkpoints, ingestion, connect), the newest payload winning per field (docs/api.md "Stored data").',
  '`updatedAt` is the newest of the timestamps (epoch ms) of the payloads that set a field; null for a record named only by its id.',
  'A write answered 2xx before this request is in the answer. 404 when nothing was ever stored under the identifier in this data set (labels alone store no record).',
].join(' ');

const NETWORK_DESCRIPTION = [
  `The graph around the subject, for drawing: breadth-first from it up to \`depth\` hops (1–${NEIGHBOURHOOD_MAX_DEPTH}, default ${NEIGHBOURHOOD_DEFAULT_DEPTH}), at most \`limit\` nodes (1–${NEIGHBOURHOOD_MAX_LIMIT}, default ${NEIGHBOURHOOD_DEFAULT_LIMIT}), neighbours in the order they were first linked; \`truncated\` is true when a further node within \`depth\` was left out.`,
  'Each node is `{id, type, value, depth}` (`type` the graph\'s node kind, `value` the identity it keys the node by, `id` = `type:value`), with `subject: true` on the subject and `fraudster: true` on the customers that are fraudsters now (labelled FRAUDSTER, or linked to an unforgiven chargeback); `edges` are every link between two listed nodes, `{source, target, firstSeen}`.',
  'Unlike connect, nodes with more than 5000 edges are listed too. `statistics` is what POST /v2/connect?features=true answers for the same subject at its default depth (20), "now" being this request\'s time; independent of `depth` and `limit`.',
  'Writes answered before the request are in the answer (labels included). A subject the graph does not know is answered as itself alone, and is not created.',
].join(' ');

/**
 * A customer's or supplier's stored record and its graph neighbourhood: what the console shows
 * on a subject's page, through the public API like any integration.
 */
@ApiSecurity('apiKey')
@Controller('v2')
export class SubjectsController {
  constructor(private readonly subjects: SubjectsUseCase) {}

  @SecretKeyRoute()
  @Get('customer/:customerId')
  @ApiTags('Customers')
  @ApiOperation({ summary: 'Read a customer as stored', description: RECORD_DESCRIPTION })
  @ApiParam({ name: 'customerId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ type: CustomerRecordResponseDto })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  readCustomer(@CurrentPrincipal() principal: Principal, @Param() path: CustomerPathDto, @Req() request: FastifyRequest) {
    return this.subjects.record(principal, 'customer', path.customerId, String(request.id));
  }

  @SecretKeyRoute()
  @Get('supplier/:supplierId')
  @ApiTags('Suppliers')
  @ApiOperation({ summary: 'Read a supplier as stored', description: RECORD_DESCRIPTION })
  @ApiParam({ name: 'supplierId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ type: SupplierRecordResponseDto })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  readSupplier(@CurrentPrincipal() principal: Principal, @Param() path: SupplierPathDto, @Req() request: FastifyRequest) {
    return this.subjects.record(principal, 'supplier', path.supplierId, String(request.id));
  }

  @SecretKeyRoute()
  @Get('customer/:customerId/network')
  @ApiTags('Graph')
  @ApiOperation({ summary: "A customer's graph neighbourhood and its connect statistics", description: NETWORK_DESCRIPTION })
  @ApiParam({ name: 'customerId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ type: SubjectNetworkResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  customerNetwork(@CurrentPrincipal() principal: Principal, @Param() path: CustomerPathDto, @Query() query: SubjectNetworkQueryDto, @Req() request: FastifyRequest) {
    return this.subjects.network(principal, 'customer', path.customerId, query, String(request.id));
  }

  @SecretKeyRoute()
  @Get('supplier/:supplierId/network')
  @ApiTags('Graph')
  @ApiOperation({ summary: "A supplier's graph neighbourhood and its connect statistics", description: NETWORK_DESCRIPTION })
  @ApiParam({ name: 'supplierId', ...SUBJECT_ID_PARAM })
  @ApiOkResponse({ type: SubjectNetworkResponseDto })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  supplierNetwork(@CurrentPrincipal() principal: Principal, @Param() path: SupplierPathDto, @Query() query: SubjectNetworkQueryDto, @Req() request: FastifyRequest) {
    return this.subjects.network(principal, 'supplier', path.supplierId, query, String(request.id));
  }
}
