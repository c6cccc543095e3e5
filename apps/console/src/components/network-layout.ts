// Where the network's nodes go (issue 37): every node on one circle. A straight edge between two
// points of a circle is a chord, which meets the circle only at its two ends, so with the circle
// large enough for the nodes' size no edge is drawn through a node: a customer sharing the e-mail
// never looks as if he shared the card. Plain geometry, no DOM: cytoscape draws at these positions.

export interface Point {
  x: number;
  y: number;
}

/**
 * The order around the circle: the subject first, then depth first from it, so a node sits next
 * to what it is linked to (short chords) and a group of related nodes stays together. Nodes the
 * walk does not reach follow in their given order.
 */
export function circleOrder(ids: string[], edges: Array<{ source: string; target: string }>, first?: string): string[] {
  const neighbours = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const edge of edges) {
    neighbours.get(edge.source)?.push(edge.target);
    neighbours.get(edge.target)?.push(edge.source);
  }
  const order: string[] = [];
  const seen = new Set<string>();
  const walk = (start: string) => {
    const stack = [start];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (seen.has(id)) continue;
      seen.add(id);
      order.push(id);
      // Pushed in reverse, so the first-linked neighbour is visited first.
      const next = (neighbours.get(id) ?? []).filter((other) => !seen.has(other));
      for (let index = next.length - 1; index >= 0; index -= 1) stack.push(next[index] as string);
    }
  };
  if (first && neighbours.has(first)) walk(first);
  for (const id of ids) if (!seen.has(id)) walk(id);
  return order;
}

function distanceToSegment(point: Point, from: Point, to: Point): number {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = dx * dx + dy * dy;
  const along = length === 0 ? 0 : Math.max(0, Math.min(1, ((point.x - from.x) * dx + (point.y - from.y) * dy) / length));
  return Math.hypot(point.x - (from.x + along * dx), point.y - (from.y + along * dy));
}

const unitPoint = (index: number, count: number): Point => {
  // The first node at the top, then clockwise.
  const angle = -Math.PI / 2 + (2 * Math.PI * index) / count;
  return { x: Math.cos(angle), y: Math.sin(angle) };
};

/**
 * The smallest distance, on the unit circle, between an edge and a node that is not one of its
 * ends: the radius times this is how far every edge passes from every other node.
 */
export function unitClearance(order: string[], edges: Array<{ source: string; target: string }>): number {
  const index = new Map(order.map((id, position) => [id, position]));
  const points = order.map((_, position) => unitPoint(position, order.length));
  let clearance = Infinity;
  for (const edge of edges) {
    const from = index.get(edge.source);
    const to = index.get(edge.target);
    if (from === undefined || to === undefined || from === to) continue;
    points.forEach((point, position) => {
      if (position !== from && position !== to) clearance = Math.min(clearance, distanceToSegment(point, points[from] as Point, points[to] as Point));
    });
  }
  return clearance;
}

export interface CircleLayout {
  order: string[];
  positions: Map<string, Point>;
  radius: number;
  /** The angle (radians, 0 = to the right) of each node: its label points away from the circle. */
  angles: Map<string, number>;
}

/**
 * Positions on one circle whose radius keeps every edge at least `nodeRadius + gap` from every
 * node it does not end at, and the nodes `spacing` apart along the circle (room for a label);
 * at least `minRadius`, so that a small network's links are long enough to carry their captions.
 */
export function circleLayout(ids: string[], edges: Array<{ source: string; target: string }>, first: string | undefined, size: { nodeRadius: number; gap: number; spacing: number; minRadius: number }): CircleLayout {
  const order = circleOrder(ids, edges, first);
  const count = order.length;
  // Neighbours `spacing` apart in a straight line (the chord), not only along the arc.
  const byArc = count <= 1 ? 0 : size.spacing / (2 * Math.sin(Math.PI / count));
  const clearance = unitClearance(order, edges);
  const byEdges = Number.isFinite(clearance) && clearance > 0 ? (size.nodeRadius + size.gap) / clearance : 0;
  const radius = count <= 1 ? 0 : Math.max(byArc, byEdges, size.minRadius);
  const positions = new Map<string, Point>();
  const angles = new Map<string, number>();
  order.forEach((id, position) => {
    const point = unitPoint(position, count);
    positions.set(id, { x: point.x * radius, y: point.y * radius });
    angles.set(id, Math.atan2(point.y, point.x));
  });
  return { order, positions, radius, angles };
}
