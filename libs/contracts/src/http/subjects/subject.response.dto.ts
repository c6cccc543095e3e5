import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { CONNECT_NODE_KINDS, ConnectFeaturesResponseDto } from '../responses/connect.response';

const UPDATED_AT = {
  type: 'integer',
  nullable: true,
  example: 1763800000000,
  description: 'The newest timestamp (epoch ms) of the payloads that set its fields; null for a record that has no field yet (named by its identifier only).',
} as const;
const FIELDS = {
  type: 'object',
  additionalProperties: true,
  description:
    'Every field as stored, merged field by field from every payload that described it (docs/api.md "Stored data"): the newest payload wins per field, arrays are replaced whole. Besides what was sent: `lastDeviceId` (the device of the newest payload naming one) and `chargebacks` (per chargeback or dispute id, `{forgiven}`). Never a password hash: registration hashes are checked and dropped before anything is stored.',
} as const;

/** `GET /v2/customer/:customerId`: the customer as stored. */
export class CustomerRecordDto {
  @ApiProperty({ example: 'cus-61213' }) customerId!: string;
  @ApiProperty({ ...FIELDS, example: { email: 'ada@example.com', name: 'Ada Lovelace', telephone: '+447700900123', tags: { vip: true }, lastDeviceId: 'dev-1' } })
  fields!: Record<string, unknown>;
  @ApiProperty(UPDATED_AT) updatedAt!: number | null;
}

export class CustomerRecordResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => CustomerRecordDto }) data!: CustomerRecordDto;
}

/** `GET /v2/supplier/:supplierId`: the supplier as stored. */
export class SupplierRecordDto {
  @ApiProperty({ example: 'sup-7731' }) supplierId!: string;
  @ApiProperty({ ...FIELDS, example: { name: 'Babbage Engines Ltd', email: 'ops@babbage.example', verified: true } })
  fields!: Record<string, unknown>;
  @ApiProperty(UPDATED_AT) updatedAt!: number | null;
}

export class SupplierRecordResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => SupplierRecordDto }) data!: SupplierRecordDto;
}

/** One node of a neighbourhood. */
export class NetworkNodeDto {
  @ApiProperty({
    example: 'device:dev-1',
    description: '`<type>:<value>`: the same node has the same id in every answer of the data set, so neighbourhoods fetched one after another can be merged.',
  })
  id!: string;
  @ApiProperty({ enum: CONNECT_NODE_KINDS, example: 'device', description: "The graph's node kind (docs/api.md \"The graph\")." }) type!: string;
  @ApiProperty({
    example: 'dev-1',
    description:
      'The identity the graph keys the node by, not a hash: the id of a customer, supplier, device or chargeback; the trimmed, lower-cased e-mail; the E.164 phone (or its digits); `instrument:<instrumentId>` or `method:[owner kind, owner id, paymentMethodId]` for a card; `vin:<vin>` or `plate:[country, state, plate]` for a vehicle; `[document kind, country, state, number]` for an identification; `[nodeType, nodeId]` for a custom node.',
  })
  value!: string;
  @ApiProperty({ type: 'integer', example: 1, description: 'Hops from the subject (0 for the subject).' }) depth!: number;
  @ApiPropertyOptional({ type: Boolean, example: true, description: 'Present (true) on the subject only.' }) subject?: true;
  @ApiPropertyOptional({ type: Boolean, example: true, description: 'Present (true) on customers that are fraudsters now: current PAYMENT_FRAUD label FRAUDSTER, or linked to an unforgiven chargeback.' })
  fraudster?: true;
  @ApiPropertyOptional({ type: 'integer', nullable: true, example: 57, description: 'Customers only: the score of its latest decision (0–100); null when it has none or that answer had no score.' })
  score?: number | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { PAYMENT_FRAUD: 'FRAUDSTER' },
    description: 'Customers only: its current label per category (empty when it has none).',
  })
  labels?: Record<string, string>;
}

/** What an edge links through. */
export class NetworkEdgeAttributeDto {
  @ApiProperty({ enum: CONNECT_NODE_KINDS, example: 'email', description: 'The kind of the edge\'s attribute node: its endpoint that is no customer (for a customer–supplier link, the supplier).' }) kind!: string;
  @ApiProperty({
    example: 'ada@example.com',
    description: 'The attribute as analysts read it: the e-mail, phone, device id…; a card as `BIN…last4` when a decision saw its instrument with a BIN and last four, else its instrument id (or its owner\'s paymentMethodId), never a card number.',
  })
  value!: string;
}

/** An undirected edge of a neighbourhood, written from the endpoint nearer the subject. */
export class NetworkEdgeDto {
  @ApiProperty({ example: 'customer:cus-61213', description: 'The `id` of the endpoint met first from the subject.' }) source!: string;
  @ApiProperty({ example: 'device:dev-1', description: 'The `id` of the other endpoint.' }) target!: string;
  @ApiProperty({ type: 'integer', example: 1763800000000, description: 'When the link was first seen: the earliest payload timestamp that made it, epoch ms.' }) firstSeen!: number;
  @ApiProperty({ type: () => NetworkEdgeAttributeDto, description: 'The shared attribute the edge stands for.' }) attribute!: NetworkEdgeAttributeDto;
}

/** The connect statistics of the subject: connect's `features=true` answer without its envelope. */
export class SubjectNetworkStatisticsDto extends OmitType(ConnectFeaturesResponseDto, ['timestamp', 'clientID', 'customerID'] as const) {}

export class SubjectNetworkDto {
  @ApiProperty({ type: () => [NetworkNodeDto], description: 'Breadth-first from the subject (first), at most `limit`.' }) nodes!: NetworkNodeDto[];
  @ApiProperty({ type: () => [NetworkEdgeDto], description: 'Every edge between two of the nodes.' }) edges!: NetworkEdgeDto[];
  @ApiProperty({ example: false, description: 'True when a further node within `depth` was left out because `limit` nodes were listed.' }) truncated!: boolean;
  @ApiProperty({
    type: [String],
    nullable: true,
    example: ['customer:cus-61213', 'email:ada@example.com', 'customer:cus-9'],
    description: 'Node ids of the shortest path over the listed edges from the subject to the nearest fraudster (`fraudster: true`) among the listed nodes, the subject first; just the subject when it is one; null when no listed fraudster is reachable.',
  })
  pathToFraudster!: string[] | null;
  @ApiProperty({
    type: () => SubjectNetworkStatisticsDto,
    description:
      'The statistics `POST /v2/connect?features=true` answers for the same subject at the default depth (20) and caps, "now" being this request\'s time; for a supplier, the same search from the supplier. Independent of `depth` and `limit`.',
  })
  statistics!: SubjectNetworkStatisticsDto;
}

export class SubjectNetworkResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => SubjectNetworkDto }) data!: SubjectNetworkDto;
}
