import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WarningDto } from './customer-recommendation.response';

/**
 * The node kinds of the connect graph (ADR-0004), in the order of the answer's fields. Each
 * has `<kind>Count` and `<kind>DegreeMin` / `Mean` / `Max`; the specification names some of
 * these fields and leaves the others "not shown", and the rest follow the same pattern.
 */
export const CONNECT_NODE_KINDS = ['customer', 'card', 'email', 'phone', 'device', 'vehicle', 'identification', 'customNode1', 'customNode2', 'customNode3', 'customNode4', 'customNode5', 'supplier', 'chargeback'] as const;
export type ConnectNodeKind = (typeof CONNECT_NODE_KINDS)[number];

/** One item of `tags`: a tag set true on a visited customer, at the smallest depth it was seen. */
export class ConnectTagDto {
  @ApiProperty({ example: 'vip' }) tagName!: string;
  @ApiProperty({ type: 'integer', example: 2, description: 'Smallest depth (edges from the customer) at which the tag was seen.' }) depth!: number;
}

/** POST /v2/connect without `features=true` (ADR-0004): the short acknowledgement. */
export class ConnectResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ example: 'true', description: 'Always the string `"true"` on success (a string, as the specification gives it).' }) success!: string;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'When handling finished, epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ example: 'acc_01JCZ3V9Q8', description: 'The client account identifier (the account id of the admin API).' }) clientID!: string;
  @ApiProperty({ example: 'cus-61213', description: 'The customer connected.' }) customerID!: string;
  @ApiPropertyOptional({
    type: () => [WarningDto],
    description: 'Only when `features=true` was asked and the graph did not answer within the budget: the links were kept, the statistics are missing (class `degraded`).',
  })
  warnings?: WarningDto[];
}

/**
 * POST /v2/connect?features=true (specification §2.2, "Connect response"; ADR-0004): graph
 * statistics around the customer, without `status` and `success`. When `maxNodesHit` is true every
 * `…Count` field is 5000 and `count` is 5000 times the number of node-kind counts.
 */
export class ConnectFeaturesResponseDto {
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'When handling finished, epoch milliseconds. Edge ages and growth are measured from the request\'s `timestamp`, so an answer can be reproduced.' }) timestamp!: number;
  @ApiProperty({ example: 'acc_01JCZ3V9Q8', description: 'The client account identifier (the account id of the admin API).' }) clientID!: string;
  @ApiProperty({ example: 'cus-61213', description: 'The customer the traversal started from.' }) customerID!: string;
  @ApiProperty({ type: 'integer', example: 15, description: 'Nodes visited: the sum of the node-kind counts below.' }) count!: number;
  @ApiProperty({ type: 'integer', example: 3, description: 'Visited customer nodes.' }) customerCount!: number;
  @ApiProperty({ type: 'integer', example: 2, description: 'Visited card nodes.' }) cardCount!: number;
  @ApiProperty({ type: 'integer', example: 3, description: 'Visited email-address nodes.' }) emailCount!: number;
  @ApiProperty({ type: 'integer', example: 2, description: 'Visited telephone-number nodes.' }) phoneCount!: number;
  @ApiProperty({ type: 'integer', example: 2, description: 'Visited device nodes.' }) deviceCount!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Visited vehicle nodes.' }) vehicleCount!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Visited national-identification nodes.' }) identificationCount!: number;
  @ApiProperty({ type: 'integer', example: 1, description: "Visited custom nodes of the account's first nodeType." }) customNode1Count!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Visited custom nodes of the account's second nodeType. Name chosen here: the specification does not show it." }) customNode2Count!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Visited custom nodes of the account's third nodeType. Name chosen here: the specification does not show it." }) customNode3Count!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Visited custom nodes of the account's fourth nodeType. Name chosen here: the specification does not show it." }) customNode4Count!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Visited custom nodes of the account's fifth nodeType. Name chosen here: the specification does not show it." }) customNode5Count!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Visited supplier nodes.' }) supplierCount!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Visited chargeback (dispute) nodes.' }) chargebackCount!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Visited customers whose current PAYMENT_FRAUD label is FRAUDSTER.' }) reviewedFraudsterCount!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Visited customers whose current PAYMENT_FRAUD label is GENUINE.' }) reviewedGenuineCount!: number;
  @ApiProperty({
    type: 'integer',
    example: 2,
    description: 'Edges from the customer to the nearest visited fraudster (a customer labelled FRAUDSTER or linked to an unforgiven chargeback); 0 if the customer is one, -1 if none was visited.',
  })
  hopsToFraud!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Smallest degree (edges) among visited customer nodes; 0 when none was visited.' }) customerDegreeMin!: number;
  @ApiProperty({ type: 'number', example: 2.33, description: 'Mean degree of visited customer nodes; 0 when none was visited.' }) customerDegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 4, description: 'Largest degree among visited customer nodes; 0 when none was visited.' }) customerDegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Smallest degree (edges) among visited card nodes; 0 when none was visited.' }) cardDegreeMin!: number;
  @ApiProperty({ type: 'number', example: 2.5, description: 'Mean degree of visited card nodes; 0 when none was visited.' }) cardDegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 4, description: 'Largest degree among visited card nodes; 0 when none was visited.' }) cardDegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Smallest degree (edges) among visited email-address nodes; 0 when none was visited.' }) emailDegreeMin!: number;
  @ApiProperty({ type: 'number', example: 1.33, description: 'Mean degree of visited email-address nodes; 0 when none was visited.' }) emailDegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 2, description: 'Largest degree among visited email-address nodes; 0 when none was visited.' }) emailDegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Smallest degree (edges) among visited telephone-number nodes; 0 when none was visited.' }) phoneDegreeMin!: number;
  @ApiProperty({ type: 'number', example: 1.5, description: 'Mean degree of visited telephone-number nodes; 0 when none was visited.' }) phoneDegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 2, description: 'Largest degree among visited telephone-number nodes; 0 when none was visited.' }) phoneDegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Smallest degree (edges) among visited device nodes; 0 when none was visited.' }) deviceDegreeMin!: number;
  @ApiProperty({ type: 'number', example: 2, description: 'Mean degree of visited device nodes; 0 when none was visited.' }) deviceDegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 3, description: 'Largest degree among visited device nodes; 0 when none was visited.' }) deviceDegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Smallest degree (edges) among visited vehicle nodes; 0 when none was visited.' }) vehicleDegreeMin!: number;
  @ApiProperty({ type: 'number', example: 0, description: 'Mean degree of visited vehicle nodes; 0 when none was visited.' }) vehicleDegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Largest degree among visited vehicle nodes; 0 when none was visited.' }) vehicleDegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Smallest degree (edges) among visited national-identification nodes; 0 when none was visited. Name chosen here: the specification does not show it.' }) identificationDegreeMin!: number;
  @ApiProperty({ type: 'number', example: 1, description: 'Mean degree of visited national-identification nodes; 0 when none was visited.' }) identificationDegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Largest degree among visited national-identification nodes; 0 when none was visited.' }) identificationDegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 1, description: "Smallest degree (edges) among visited custom nodes of the account's first nodeType; 0 when none was visited." }) customNode1DegreeMin!: number;
  @ApiProperty({ type: 'number', example: 1, description: "Mean degree of visited custom nodes of the account's first nodeType; 0 when none was visited." }) customNode1DegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 1, description: "Largest degree among visited custom nodes of the account's first nodeType; 0 when none was visited." }) customNode1DegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Smallest degree (edges) among visited custom nodes of the account's second nodeType; 0 when none was visited. Name chosen here: the specification does not show it." }) customNode2DegreeMin!: number;
  @ApiProperty({ type: 'number', example: 0, description: "Mean degree of visited custom nodes of the account's second nodeType; 0 when none was visited." }) customNode2DegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Largest degree among visited custom nodes of the account's second nodeType; 0 when none was visited." }) customNode2DegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Smallest degree (edges) among visited custom nodes of the account's third nodeType; 0 when none was visited. Name chosen here: the specification does not show it." }) customNode3DegreeMin!: number;
  @ApiProperty({ type: 'number', example: 0, description: "Mean degree of visited custom nodes of the account's third nodeType; 0 when none was visited." }) customNode3DegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Largest degree among visited custom nodes of the account's third nodeType; 0 when none was visited." }) customNode3DegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Smallest degree (edges) among visited custom nodes of the account's fourth nodeType; 0 when none was visited. Name chosen here: the specification does not show it." }) customNode4DegreeMin!: number;
  @ApiProperty({ type: 'number', example: 0, description: "Mean degree of visited custom nodes of the account's fourth nodeType; 0 when none was visited." }) customNode4DegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Largest degree among visited custom nodes of the account's fourth nodeType; 0 when none was visited." }) customNode4DegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Smallest degree (edges) among visited custom nodes of the account's fifth nodeType; 0 when none was visited. Name chosen here: the specification does not show it." }) customNode5DegreeMin!: number;
  @ApiProperty({ type: 'number', example: 0, description: "Mean degree of visited custom nodes of the account's fifth nodeType; 0 when none was visited." }) customNode5DegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 0, description: "Largest degree among visited custom nodes of the account's fifth nodeType; 0 when none was visited." }) customNode5DegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Smallest degree (edges) among visited supplier nodes; 0 when none was visited. Name chosen here: the specification does not show it.' }) supplierDegreeMin!: number;
  @ApiProperty({ type: 'number', example: 0, description: 'Mean degree of visited supplier nodes; 0 when none was visited.' }) supplierDegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 0, description: 'Largest degree among visited supplier nodes; 0 when none was visited.' }) supplierDegreeMax!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Smallest degree (edges) among visited chargeback (dispute) nodes; 0 when none was visited. Name chosen here: the specification does not show it.' }) chargebackDegreeMin!: number;
  @ApiProperty({ type: 'number', example: 1, description: 'Mean degree of visited chargeback (dispute) nodes; 0 when none was visited.' }) chargebackDegreeMean!: number;
  @ApiProperty({ type: 'integer', example: 1, description: 'Largest degree among visited chargeback (dispute) nodes; 0 when none was visited.' }) chargebackDegreeMax!: number;
  @ApiProperty({ example: false, description: 'No fraudster was found and the traversal stopped at the depth limit with unvisited neighbours left.' }) maxDepthReached!: boolean;
  @ApiProperty({ example: false, description: 'The 5000 visited-node limit was reached and a further node was met.' }) maxNodesHit!: boolean;
  @ApiProperty({ example: false, description: 'A node with more than 5000 edges was met and ignored (not counted, not expanded).' }) maxDegreeHit!: boolean;
  @ApiProperty({ type: 'number', example: 864000.5, description: 'Mean age in seconds of the edges between nodes visited at depth ≤ 6.' }) edgeGeneralMeanAge!: number;
  @ApiProperty({ type: 'number', example: 0.125, description: 'Edges (depth ≤ 6) first seen in the 24 hours before the request, per hour.' }) edgeGeneralGrowthRate!: number;
  @ApiProperty({ type: 'integer', example: 16, description: 'Edges between nodes visited at depth ≤ 6.' }) edgeGeneralCount!: number;
  @ApiProperty({ type: 'number', example: 432000, description: 'Mean age in seconds of the edges between nodes visited at depth ≤ 2.' }) edgeLocalMeanAge!: number;
  @ApiProperty({ type: 'number', example: 0.0833, description: 'Edges (depth ≤ 2) first seen in the 24 hours before the request, per hour.' }) edgeLocalGrowthRate!: number;
  @ApiProperty({ type: 'integer', example: 7, description: 'Edges between nodes visited at depth ≤ 2.' }) edgeLocalCount!: number;
  @ApiProperty({ type: 'number', example: 2.13, description: 'Mean degree over all visited nodes.' }) meanDegree!: number;
  @ApiProperty({
    type: () => [ConnectTagDto],
    example: [{ tagName: 'vip', depth: 0 }, { tagName: 'referral-abuser', depth: 2 }],
    description: 'Tags set true on visited customers, each at the smallest depth seen; sorted by depth, then name.',
  })
  tags!: ConnectTagDto[];
}
