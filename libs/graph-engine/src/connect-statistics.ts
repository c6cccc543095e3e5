import type { ConnectFeatures, ConnectTag, GraphCaps } from './connect-features';
import { GROWTH_WINDOW_HOURS, sortTags } from './connect-features';
import { KIND_COUNT, NODE_KINDS } from './node-kind';
import type { TraversalScratch, TraversalStatistics } from './traversal';
import { depthOf } from './traversal';

/** Reads the tags set true on a customer, or nothing when it has none. */
export type TrueTagsOf = (node: number) => Iterable<string> | undefined;

// Each kind's field names, made once: built per answer they were about 40 strings a checkpoint.
const COUNT_FIELDS = NODE_KINDS.map((kind) => `${kind}Count`);
const DEGREE_MIN_FIELDS = NODE_KINDS.map((kind) => `${kind}DegreeMin`);
const DEGREE_MEAN_FIELDS = NODE_KINDS.map((kind) => `${kind}DegreeMean`);
const DEGREE_MAX_FIELDS = NODE_KINDS.map((kind) => `${kind}DegreeMax`);

/** New general edges per hour over the growth window: connect's `edgeGeneralGrowthRate`, the network features' `networkGrowthRate`. */
export const generalEdgeGrowthRate = (stats: TraversalStatistics): number => stats.edges[2] / GROWTH_WINDOW_HOURS;

/**
 * The connect answer (ADR-0004) from a finished traversal in `scratch` whose statistics
 * `traverse` gathered into `stats` (see `TraversalStatistics`). Degrees are full degrees (all
 * of a node's edges, visited or not). An edge counts as general (local) when both its
 * endpoints were visited at depth ≤ `caps.generalEdgeDepth` (`localEdgeDepth`); its age is
 * (now − first seen) in seconds and it is "new" when first seen in (now − 24 h, now]. When
 * `maxNodesHit`, every `…Count` field becomes `caps.maxNodes` and `count` that times the
 * number of node kinds.
 */
export function connectStatistics(scratch: TraversalScratch, stats: TraversalStatistics, caps: GraphCaps, trueTagsOf: TrueTagsOf): ConnectFeatures {
  const visited = scratch.visited;
  const { count, degreeSum, degreeMin, degreeMax, edges, tagged, taggedCount } = stats;
  let tagDepths: Map<string, number> | undefined;
  for (let k = 0; k < taggedCount; k += 1) {
    // Visiting order: the first depth a tag is seen at is its smallest.
    for (const tag of trueTagsOf(tagged[k]) ?? []) {
      tagDepths ??= new Map();
      if (!tagDepths.has(tag)) tagDepths.set(tag, depthOf(scratch, tagged[k]));
    }
  }
  const generalCount = edges[0];
  const localCount = edges[3];
  const reviewedFraudster = stats.reviewedFraudster;
  const reviewedGenuine = stats.reviewedGenuine;
  const degreeTotal = stats.degreeTotal;

  const saturated = scratch.maxNodesHit;
  const cap = caps.maxNodes;
  const answer: Record<string, unknown> = { count: saturated ? cap * KIND_COUNT : visited };
  for (let kind = 0; kind < KIND_COUNT; kind += 1) answer[COUNT_FIELDS[kind]] = saturated ? cap : count[kind];
  answer.reviewedFraudsterCount = saturated ? cap : reviewedFraudster;
  answer.reviewedGenuineCount = saturated ? cap : reviewedGenuine;
  answer.hopsToFraud = scratch.hopsToFraud;
  for (let kind = 0; kind < KIND_COUNT; kind += 1) {
    const none = count[kind] === 0;
    answer[DEGREE_MIN_FIELDS[kind]] = none ? 0 : degreeMin[kind];
    answer[DEGREE_MEAN_FIELDS[kind]] = none ? 0 : degreeSum[kind] / count[kind];
    answer[DEGREE_MAX_FIELDS[kind]] = none ? 0 : degreeMax[kind];
  }
  answer.maxDepthReached = scratch.maxDepthReached;
  answer.maxNodesHit = saturated;
  answer.maxDegreeHit = scratch.maxDegreeHit;
  answer.edgeGeneralMeanAge = generalCount === 0 ? 0 : edges[1] / (generalCount * 1000);
  answer.edgeGeneralGrowthRate = generalEdgeGrowthRate(stats);
  answer.edgeGeneralCount = saturated ? cap : generalCount;
  answer.edgeLocalMeanAge = localCount === 0 ? 0 : edges[4] / (localCount * 1000);
  answer.edgeLocalGrowthRate = edges[5] / GROWTH_WINDOW_HOURS;
  answer.edgeLocalCount = saturated ? cap : localCount;
  answer.meanDegree = degreeTotal / visited;
  const tags: ConnectTag[] = [];
  if (tagDepths !== undefined) for (const [tagName, tagDepth] of tagDepths) tags.push({ tagName, depth: tagDepth });
  answer.tags = sortTags(tags);
  return answer as ConnectFeatures;
}
