import type { ConnectFeatures, ConnectTag, GraphCaps } from './connect-features';
import { GROWTH_WINDOW_HOURS, GROWTH_WINDOW_MS, sortTags } from './connect-features';
import { CUSTOMER, KIND_COUNT, NODE_KINDS } from './node-kind';
import type { GraphView, TraversalScratch } from './traversal';
import { LABEL_FRAUDSTER, LABEL_GENUINE } from './traversal';

/** Reads the tags set true on a customer, or nothing when it has none. */
export type TrueTagsOf = (node: number) => Iterable<string> | undefined;

/**
 * Per-call accumulators, kept between calls so that a connect allocates only its answer.
 */
export class StatisticsScratch {
  readonly count = new Float64Array(KIND_COUNT);
  readonly degreeSum = new Float64Array(KIND_COUNT);
  readonly degreeMin = new Float64Array(KIND_COUNT);
  readonly degreeMax = new Float64Array(KIND_COUNT);
}

/**
 * The connect answer's statistics (decisions §4) over a finished traversal in `scratch`.
 * Degrees are full degrees (all of a node's edges, visited or not). An edge counts as general
 * (local) when both its endpoints were visited at depth ≤ `caps.generalEdgeDepth`
 * (`localEdgeDepth`); its age is (now − first seen) in seconds and it is "new" when first seen
 * in (now − 24 h, now]. When `maxNodesHit`, every `…Count` field becomes `caps.maxNodes` and
 * `count` that times the number of node kinds.
 */
export function connectStatistics(view: GraphView, scratch: TraversalScratch, stats: StatisticsScratch, caps: GraphCaps, nowMs: number, trueTagsOf: TrueTagsOf, hasTags: Uint8Array): ConnectFeatures {
  const { neighbours, offset, degree } = view.arena;
  const { visit, queue, epoch, visited } = scratch;
  const firstSeen = view.arena.firstSeen;
  const { count, degreeSum, degreeMin, degreeMax } = stats;
  count.fill(0);
  degreeSum.fill(0);
  degreeMin.fill(Infinity);
  degreeMax.fill(0);
  let reviewedFraudster = 0;
  let reviewedGenuine = 0;
  let degreeTotal = 0;
  let tagDepths: Map<string, number> | undefined;
  for (let k = 0; k < visited; k += 1) {
    const node = queue[k];
    const kind = view.kinds[node];
    const nodeDegree = degree[node];
    count[kind] += 1;
    degreeSum[kind] += nodeDegree;
    if (nodeDegree < degreeMin[kind]) degreeMin[kind] = nodeDegree;
    if (nodeDegree > degreeMax[kind]) degreeMax[kind] = nodeDegree;
    degreeTotal += nodeDegree;
    if (kind !== CUSTOMER) continue;
    const label = view.labels[node];
    if (label === LABEL_FRAUDSTER) reviewedFraudster += 1;
    else if (label === LABEL_GENUINE) reviewedGenuine += 1;
    if (hasTags[node] === 1) {
      // Breadth-first order: the first depth a tag is seen at is its smallest.
      for (const tag of trueTagsOf(node) ?? []) {
        tagDepths ??= new Map();
        if (!tagDepths.has(tag)) tagDepths.set(tag, visit[2 * node + 1]);
      }
    }
  }

  const generalDepth = caps.generalEdgeDepth;
  const localDepth = caps.localEdgeDepth;
  const deepest = Math.max(generalDepth, localDepth);
  const windowStart = nowMs - GROWTH_WINDOW_MS;
  let generalCount = 0;
  let generalAge = 0;
  let generalNew = 0;
  let localCount = 0;
  let localAge = 0;
  let localNew = 0;
  for (let k = 0; k < visited; k += 1) {
    const node = queue[k];
    const nodeDepth = visit[2 * node + 1];
    if (nodeDepth > deepest) break;
    const end = offset[node] + degree[node];
    for (let i = offset[node]; i < end; i += 1) {
      const other = neighbours[i];
      // Each edge once: from its endpoint with the smaller id.
      if (other < node || visit[2 * other] !== epoch) continue;
      const otherDepth = visit[2 * other + 1];
      const edgeDepth = otherDepth > nodeDepth ? otherDepth : nodeDepth;
      if (edgeDepth > deepest) continue;
      const seenAt = firstSeen[i];
      const age = (nowMs - seenAt) / 1000;
      const isNew = seenAt > windowStart && seenAt <= nowMs ? 1 : 0;
      if (edgeDepth <= generalDepth) {
        generalCount += 1;
        generalAge += age;
        generalNew += isNew;
      }
      if (edgeDepth <= localDepth) {
        localCount += 1;
        localAge += age;
        localNew += isNew;
      }
    }
  }

  const saturated = scratch.maxNodesHit;
  const cap = caps.maxNodes;
  const answer: Record<string, unknown> = { count: saturated ? cap * KIND_COUNT : visited };
  for (let kind = 0; kind < KIND_COUNT; kind += 1) answer[`${NODE_KINDS[kind]}Count`] = saturated ? cap : count[kind];
  answer.reviewedFraudsterCount = saturated ? cap : reviewedFraudster;
  answer.reviewedGenuineCount = saturated ? cap : reviewedGenuine;
  answer.hopsToFraud = scratch.hopsToFraud;
  for (let kind = 0; kind < KIND_COUNT; kind += 1) {
    const name = NODE_KINDS[kind];
    const none = count[kind] === 0;
    answer[`${name}DegreeMin`] = none ? 0 : degreeMin[kind];
    answer[`${name}DegreeMean`] = none ? 0 : degreeSum[kind] / count[kind];
    answer[`${name}DegreeMax`] = none ? 0 : degreeMax[kind];
  }
  answer.maxDepthReached = scratch.maxDepthReached;
  answer.maxNodesHit = saturated;
  answer.maxDegreeHit = scratch.maxDegreeHit;
  answer.edgeGeneralMeanAge = generalCount === 0 ? 0 : generalAge / generalCount;
  answer.edgeGeneralGrowthRate = generalNew / GROWTH_WINDOW_HOURS;
  answer.edgeGeneralCount = saturated ? cap : generalCount;
  answer.edgeLocalMeanAge = localCount === 0 ? 0 : localAge / localCount;
  answer.edgeLocalGrowthRate = localNew / GROWTH_WINDOW_HOURS;
  answer.edgeLocalCount = saturated ? cap : localCount;
  answer.meanDegree = degreeTotal / visited;
  const tags: ConnectTag[] = [];
  if (tagDepths !== undefined) for (const [tagName, tagDepth] of tagDepths) tags.push({ tagName, depth: tagDepth });
  answer.tags = sortTags(tags);
  return answer as ConnectFeatures;
}
