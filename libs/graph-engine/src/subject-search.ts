import type { GraphIndex } from './graph-index';
import type { NodeKind } from './node-kind';

/** A customer or supplier found by a search. */
export interface SubjectHit {
  kind: 'customer' | 'supplier';
  identity: string;
}

/**
 * The subjects a search for the node (kind, identity) finds (ADR-0014): the node itself when it
 * is a customer or supplier, else the customers and suppliers linked to it, in the order they
 * were first linked, at most `limit`. An index lookup and at most one adjacency list read up to
 * the limit, so a hub (an e-mail shared by thousands) costs no more than `limit` subjects after
 * the attribute nodes among its neighbours.
 */
export function subjectsAt(index: GraphIndex, kind: NodeKind, identity: string, limit: number): SubjectHit[] {
  const node = index.find(kind, identity);
  if (node === undefined || limit < 1) return [];
  if (kind === 'customer' || kind === 'supplier') return [{ kind, identity }];
  const { neighbours, offset, degree } = index.arena;
  const hits: SubjectHit[] = [];
  for (let i = offset[node]; i < offset[node] + degree[node] && hits.length < limit; i += 1) {
    const neighbourKind = index.kindOf(neighbours[i]);
    if (neighbourKind === 'customer' || neighbourKind === 'supplier') hits.push({ kind: neighbourKind, identity: index.identityOf(neighbours[i]) });
  }
  return hits;
}
