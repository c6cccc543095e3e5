import { IsOptionalQueryBoolean, IsOptionalQueryInteger } from '../shared/query-parameters';

/** The deepest connect traversal, also the default (specification §4.2, ADR-0004). */
export const CONNECT_MAX_DEPTH = 20;

/** Query parameters of POST /v2/connect. */
export class ConnectQueryDto {
  @IsOptionalQueryBoolean('`true`: answer with the graph statistics instead of the short acknowledgement.')
  features?: boolean;

  @IsOptionalQueryInteger(1, CONNECT_MAX_DEPTH, 'Maximum traversal depth in edges from the customer; 1 to 20, default 20.', CONNECT_MAX_DEPTH)
  depth: number = CONNECT_MAX_DEPTH;
}
