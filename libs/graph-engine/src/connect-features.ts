import type { NodeKind } from './node-kind';

/**
 * The limits of a traversal (specification §8, ADR-0004). Parameters rather than constants
 * so that tests can exercise every cap on small graphs.
 */
export interface GraphCaps {
  /** Nodes visited at most (the start included); then `maxNodesHit` and saturated counts. */
  maxNodes: number;
  /** A node with more edges than this is not visited (the start always is). */
  maxDegree: number;
  /** Edges whose both endpoints were visited at depth ≤ this are the "general" edges. */
  generalEdgeDepth: number;
  /** … and at depth ≤ this the "local" edges. */
  localEdgeDepth: number;
}

export const DEFAULT_CAPS: Readonly<GraphCaps> = Object.freeze({ maxNodes: 5000, maxDegree: 5000, generalEdgeDepth: 6, localEdgeDepth: 2 });

export interface TraversalOptions {
  /** Edges from the start beyond which nothing is visited (connect: 1..20, default 20). */
  depth: number;
  /** "Now" for edge ages and the growth window, epoch ms: the request's timestamp. */
  nowMs: number;
  caps?: Partial<GraphCaps>;
}

export interface ConnectTag {
  tagName: string;
  depth: number;
}

type KindCounts = { [K in NodeKind as `${K}Count`]: number };
type KindDegrees = { [K in NodeKind as `${K}DegreeMin` | `${K}DegreeMean` | `${K}DegreeMax`]: number };

/**
 * The statistics of a connect answer with `features=true`: every field of the contracts'
 * `ConnectFeaturesResponseDto` except the envelope (`timestamp`, `clientID`, `customerID`),
 * under the same names.
 */
export type ConnectFeatures = { count: number } & KindCounts & {
  reviewedFraudsterCount: number;
  reviewedGenuineCount: number;
  hopsToFraud: number;
} & KindDegrees & {
  maxDepthReached: boolean;
  maxNodesHit: boolean;
  maxDegreeHit: boolean;
  edgeGeneralMeanAge: number;
  edgeGeneralGrowthRate: number;
  edgeGeneralCount: number;
  edgeLocalMeanAge: number;
  edgeLocalGrowthRate: number;
  edgeLocalCount: number;
  meanDegree: number;
  tags: ConnectTag[];
};

/** The growth window is (now − 24 h, now]; the rate is per hour. */
export const GROWTH_WINDOW_MS = 24 * 60 * 60 * 1000;
export const GROWTH_WINDOW_HOURS = 24;

/** Merges caller caps over the defaults, refusing values that would make no sense. */
export function resolveCaps(caps: Partial<GraphCaps> | undefined): GraphCaps {
  const resolved = { ...DEFAULT_CAPS, ...caps };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`graph cap ${name} must be a non-negative integer, not ${String(value)}`);
  }
  if (resolved.maxNodes < 1) throw new RangeError('graph cap maxNodes must be at least 1 (the start is always visited)');
  return resolved;
}

/** Code-point order (JavaScript's `<` on strings compares UTF-16 units, which differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    // i < length, so both code points exist.
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x - y;
    if (x > 0xffff) i += 1;
  }
  return a.length - b.length;
}

/** Tags by depth, then name in code-point order (ADR-0004). */
export function sortTags(tags: ConnectTag[]): ConnectTag[] {
  return tags.sort((a, b) => a.depth - b.depth || compareCodePoints(a.tagName, b.tagName));
}
