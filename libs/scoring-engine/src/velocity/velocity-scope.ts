/** One account and environment (data set): velocity never mixes two. */
export interface VelocityScope {
  accountId: string;
  environment: string;
}

// JSON of the pair: no separator character can make two tenants collide.
export const scopeKey = (scope: VelocityScope): string => JSON.stringify([scope.accountId, scope.environment]);
