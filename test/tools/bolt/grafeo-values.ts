import { types } from 'node:util';
import type { GrafeoValue } from '@grafeo-db/js';
import { BoltClientError, NEO4J_CODE } from './bolt-failures';
import { BoltStructure, type PackStreamMap, type PackStreamValue } from './packstream';

/**
 * Values between Bolt and Grafeo.
 *
 * Grafeo hands numbers back as JavaScript numbers (a bigint past 2^53) and does not say
 * whether a whole number was an integer or a float; it treats a whole number it is given as an
 * integer too. So a whole number travels as a Bolt INT and anything else as a FLOAT: a float
 * such as 2.0 comes back to the driver as the integer 2.
 *
 * Grafeo returns a node as a map with `_id` and `_labels`, a relationship with `_id`,
 * `_source`, `_target` and `_type`, and a path as `{nodes, edges}`; they go out as Bolt's Node,
 * Relationship and Path structures, so the driver gives the same objects as Neo4j does.
 */

const STRUCTURE = {
  NODE: 0x4e,
  RELATIONSHIP: 0x52,
  UNBOUND_RELATIONSHIP: 0x72,
  PATH: 0x50,
  /** Bolt 5: a date-time with an offset, as UTC seconds, nanoseconds and the offset. */
  DATE_TIME: 0x49,
  /** Bolt 5: a date-time with a zone name, as UTC seconds, nanoseconds and the zone. */
  DATE_TIME_ZONE_ID: 0x69,
} as const;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function toGrafeoParameters(parameters: PackStreamMap): Record<string, unknown> {
  return Object.fromEntries(Object.entries(parameters).map(([name, value]) => [name, toGrafeoValue(value)]));
}

function toGrafeoValue(value: PackStreamValue): unknown {
  if (typeof value === 'bigint') return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (types.isUint8Array(value)) return Buffer.from(value);
  if (Array.isArray(value)) return value.map(toGrafeoValue);
  if (value instanceof BoltStructure) return structureToGrafeo(value);
  return toGrafeoParameters(value as PackStreamMap);
}

/**
 * Date-times become JavaScript Dates (millisecond precision, zone dropped): what Grafeo takes.
 * Other structures (Date, Duration, Point, ...) are refused with a TypeError failure.
 */
function structureToGrafeo(structure: BoltStructure): Date {
  if (structure.signature === STRUCTURE.DATE_TIME || structure.signature === STRUCTURE.DATE_TIME_ZONE_ID) {
    const [seconds, nanoseconds] = structure.fields;
    if (typeof seconds === 'bigint' && typeof nanoseconds === 'bigint') return new Date(Number(seconds) * 1000 + Math.floor(Number(nanoseconds) / 1e6));
  }
  throw new BoltClientError(NEO4J_CODE.TYPE_ERROR, `parameters of Bolt structure 0x${structure.signature.toString(16)} are not supported by the Grafeo test server`);
}

export function toPackStream(value: GrafeoValue | undefined): PackStreamValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) && !Object.is(value, -0) ? BigInt(value) : value;
  if (typeof value !== 'object') return value;
  // util.types, not instanceof: Grafeo's Dates and arrays come from the main realm, and jest
  // runs tests in a realm of their own.
  if (types.isDate(value)) return dateTimeStructure(value);
  if (types.isFloat32Array(value)) return Array.from(value);
  if (types.isUint8Array(value)) return value;
  if (Array.isArray(value)) return value.map(toPackStream);
  if (isGrafeoNode(value)) return nodeStructure(value);
  if (isGrafeoEdge(value)) return relationshipStructure(value);
  if (isGrafeoPath(value)) return pathStructure(value);
  // The RDF terms of GrafeoValue come from SPARQL only, never from Cypher: the rest are maps.
  return mapToPackStream(value as GrafeoMap);
}

type GrafeoMap = { [key: string]: GrafeoValue };
type GrafeoNode = GrafeoMap & { _id: number; _labels: string[] };
type GrafeoEdge = GrafeoMap & { _id: number; _source: number; _target: number; _type: string };
type GrafeoPath = { nodes: GrafeoNode[]; edges: GrafeoEdge[] };

function isGrafeoNode(value: object): value is GrafeoNode {
  return typeof (value as GrafeoMap)._id === 'number' && Array.isArray((value as GrafeoMap)._labels);
}

function isGrafeoEdge(value: object): value is GrafeoEdge {
  const map = value as GrafeoMap;
  return typeof map._id === 'number' && typeof map._source === 'number' && typeof map._target === 'number' && typeof map._type === 'string';
}

function isGrafeoPath(value: object): value is GrafeoPath {
  const { nodes, edges, ...rest } = value as GrafeoMap;
  return (
    Object.keys(rest).length === 0 &&
    Array.isArray(nodes) &&
    Array.isArray(edges) &&
    nodes.length === edges.length + 1 &&
    nodes.every((node) => node !== null && typeof node === 'object' && isGrafeoNode(node)) &&
    edges.every((edge) => edge !== null && typeof edge === 'object' && isGrafeoEdge(edge))
  );
}

function mapToPackStream(map: GrafeoMap): PackStreamMap {
  return Object.fromEntries(Object.entries(map).map(([key, entry]) => [key, toPackStream(entry)]));
}

const nodeElementId = (id: number): string => `n:${id}`;
const edgeElementId = (id: number): string => `e:${id}`;

function nodeStructure(node: GrafeoNode): BoltStructure {
  const { _id: id, _labels: labels, ...properties } = node;
  return new BoltStructure(STRUCTURE.NODE, [BigInt(id), labels, mapToPackStream(properties), nodeElementId(id)]);
}

function relationshipStructure(edge: GrafeoEdge): BoltStructure {
  const { _id: id, _source: source, _target: target, _type: type, ...properties } = edge;
  return new BoltStructure(STRUCTURE.RELATIONSHIP, [
    BigInt(id),
    BigInt(source),
    BigInt(target),
    type,
    mapToPackStream(properties),
    edgeElementId(id),
    nodeElementId(source),
    nodeElementId(target),
  ]);
}

/**
 * Bolt's Path: the distinct nodes, the distinct relationships without their ends, and the walk
 * as (relationship, node) index pairs; a relationship index is 1-based and negative when the
 * walk goes against the relationship's direction.
 */
function pathStructure(path: GrafeoPath): BoltStructure {
  const nodeIndex = new Map<number, number>();
  const edgeIndex = new Map<number, number>();
  const nodes: BoltStructure[] = [];
  const relationships: BoltStructure[] = [];
  const indexOfNode = (node: GrafeoNode): number => {
    if (!nodeIndex.has(node._id)) nodeIndex.set(node._id, nodes.push(nodeStructure(node)) - 1);
    return nodeIndex.get(node._id)!;
  };
  const indexOfEdge = (edge: GrafeoEdge): number => {
    if (!edgeIndex.has(edge._id)) {
      const { _id: id, _source: _s, _target: _t, _type: type, ...properties } = edge;
      edgeIndex.set(id, relationships.push(new BoltStructure(STRUCTURE.UNBOUND_RELATIONSHIP, [BigInt(id), type, mapToPackStream(properties), edgeElementId(id)])));
    }
    return edgeIndex.get(edge._id)!;
  };
  indexOfNode(path.nodes[0]);
  const walk: bigint[] = [];
  path.edges.forEach((edge, step) => {
    const forward = edge._source === path.nodes[step]._id;
    walk.push(BigInt(forward ? indexOfEdge(edge) : -indexOfEdge(edge)), BigInt(indexOfNode(path.nodes[step + 1])));
  });
  return new BoltStructure(STRUCTURE.PATH, [nodes, relationships, walk]);
}

function dateTimeStructure(date: Date): BoltStructure {
  const milliseconds = date.getTime();
  const seconds = Math.floor(milliseconds / 1000);
  return new BoltStructure(STRUCTURE.DATE_TIME, [BigInt(seconds), BigInt((milliseconds - seconds * 1000) * 1e6), 0n]);
}
