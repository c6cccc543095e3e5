import { IsOptionalQueryInteger } from '../shared/query-parameters';

/** Hops from the subject a neighbourhood reaches at most; the default draws its attributes and the others sharing them. */
export const NEIGHBOURHOOD_MAX_DEPTH = 3;
export const NEIGHBOURHOOD_DEFAULT_DEPTH = 2;
/** Nodes a neighbourhood holds at most: enough to draw, small enough to lay out in a browser. */
export const NEIGHBOURHOOD_MAX_LIMIT = 500;
export const NEIGHBOURHOOD_DEFAULT_LIMIT = 150;

/** Query parameters of `GET /v2/customer/:customerId/network` and its supplier twin. */
export class SubjectNetworkQueryDto {
  @IsOptionalQueryInteger(1, NEIGHBOURHOOD_MAX_DEPTH, `Hops from the subject, 1 to ${NEIGHBOURHOOD_MAX_DEPTH}; default ${NEIGHBOURHOOD_DEFAULT_DEPTH}.`, NEIGHBOURHOOD_DEFAULT_DEPTH)
  depth: number = NEIGHBOURHOOD_DEFAULT_DEPTH;

  @IsOptionalQueryInteger(1, NEIGHBOURHOOD_MAX_LIMIT, `Nodes at most, the subject included, 1 to ${NEIGHBOURHOOD_MAX_LIMIT}; default ${NEIGHBOURHOOD_DEFAULT_LIMIT}.`, NEIGHBOURHOOD_DEFAULT_LIMIT)
  limit: number = NEIGHBOURHOOD_DEFAULT_LIMIT;
}
