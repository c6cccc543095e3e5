import fc from 'fast-check';
import { circleLayout, circleOrder } from '../../apps/console/src/components/network-layout';

/**
 * The console's network drawing (issue 37): every node on one circle, the radius chosen so that
 * no edge passes through a node it does not end at. Checked here on arbitrary graphs with the
 * geometry recomputed independently; the browser test checks the drawing is made.
 */
const SIZE = { nodeRadius: 11, gap: 4, spacing: 24, minRadius: 150 };

function distanceToSegment(point: { x: number; y: number }, from: { x: number; y: number }, to: { x: number; y: number }): number {
  const [dx, dy] = [to.x - from.x, to.y - from.y];
  const t = Math.max(0, Math.min(1, ((point.x - from.x) * dx + (point.y - from.y) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(point.x - (from.x + t * dx), point.y - (from.y + t * dy));
}

const graphs = fc.integer({ min: 2, max: 60 }).chain((count) =>
  fc.record({
    ids: fc.constant(Array.from({ length: count }, (_, index) => `node:${index}`)),
    edges: fc.array(fc.tuple(fc.nat(count - 1), fc.nat(count - 1)), { maxLength: count * 3 }).map((pairs) => pairs.filter(([a, b]) => a !== b).map(([a, b]) => ({ source: `node:${a}`, target: `node:${b}` }))),
  }),
);

describe('the network on one circle', () => {
  it('keeps every edge at least a node radius and a gap from every node it does not end at', () => {
    fc.assert(
      fc.property(graphs, ({ ids, edges }) => {
        const layout = circleLayout(ids, edges, ids[0], SIZE);
        for (const edge of edges) {
          const [from, to] = [layout.positions.get(edge.source)!, layout.positions.get(edge.target)!];
          for (const id of ids) {
            if (id === edge.source || id === edge.target) continue;
            expect(distanceToSegment(layout.positions.get(id)!, from, to)).toBeGreaterThanOrEqual(SIZE.nodeRadius + SIZE.gap - 1e-6);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('puts every node on the one circle, nodes apart, the subject first at the top', () => {
    fc.assert(
      fc.property(graphs, ({ ids, edges }) => {
        const layout = circleLayout(ids, edges, ids[0], SIZE);
        expect([...layout.order].sort()).toEqual([...ids].sort());
        expect(layout.order[0]).toBe(ids[0]);
        expect(layout.positions.get(ids[0]!)).toEqual({ x: expect.closeTo(0, 6), y: expect.closeTo(-layout.radius, 6) });
        for (const point of layout.positions.values()) expect(Math.hypot(point.x, point.y)).toBeCloseTo(layout.radius, 6);
        const step = 2 * layout.radius * Math.sin(Math.PI / ids.length);
        expect(step).toBeGreaterThanOrEqual(Math.min(SIZE.spacing, 2 * SIZE.minRadius) - 1e-6);
      }),
    );
  });

  it('places a node beside what it is linked to: a chain keeps its order, a star its leaves after the centre', () => {
    expect(circleOrder(['a', 'b', 'c', 'd'], [{ source: 'c', target: 'd' }, { source: 'a', target: 'c' }, { source: 'd', target: 'b' }], 'a')).toEqual(['a', 'c', 'd', 'b']);
    expect(circleOrder(['x', 'y', 's'], [{ source: 's', target: 'y' }], 's')).toEqual(['s', 'y', 'x']);
  });
});
