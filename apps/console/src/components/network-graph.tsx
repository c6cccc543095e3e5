import cytoscape from 'cytoscape';
import { useEffect, useRef } from 'preact/hooks';
import { navigate } from '../router';
import type { Network } from '../types';
import { type CircleLayout, circleLayout } from './network-layout';
import { KIND_COLOURS, displayValue, edgeAttribute, edgeCaption, ellipsis, kindName, nodeCaption, onPath, pathPairs } from './network-model';

export const PATH_COLOUR = '#e65100';
/** Every node is drawn this size (model units), whatever its degree: no node dwarfs the others. */
const NODE_RADIUS = 8;
/** Above this many links their captions are left to the table and the highlighted path. */
const EDGE_CAPTIONS_UP_TO = 40;

/** Smaller captions as the network grows, so neighbours' captions keep apart along the circle. */
const fontSizeFor = (count: number) => (count <= 16 ? 14 : count <= 48 ? 10 : 8);

/** The nodes at their places on the circle, each caption pointing outward, and the links. */
const edgeFontSize = (fontSize: number) => Math.max(6, fontSize - 2);

/** Roughly how wide a caption is drawn (its longest line), to set it beside its node. */
const captionWidth = (caption: string, fontSize: number) => Math.max(...caption.split('\n').map((line) => line.length)) * fontSize * 0.6;

/**
 * A node's caption along the radius, just outside the circle: its centre moved outward by the node's
 * radius and half its width, turned to the radius (upright on the left half), so neighbouring
 * captions lie side by side like spokes and never across a link inside the circle.
 */
function captionPlacement(angle: number, caption: string, fontSize: number) {
  const distance = NODE_RADIUS + 4 + captionWidth(caption, fontSize) / 2;
  return { dx: Math.cos(angle) * distance, dy: Math.sin(angle) * distance, rotation: Math.cos(angle) >= 0 ? angle : angle - Math.PI };
}

/** The nodes at their places on the circle, each caption pointing outward, and the links. */
function networkElements(network: Network, layout: CircleLayout, fontSize: number): cytoscape.ElementDefinition[] {
  const nodes = new Map(network.nodes.map((node) => [node.id, node]));
  const path = new Set(network.pathToFraudster ?? []);
  const pairs = pathPairs(network.pathToFraudster);
  const captions = network.edges.length <= EDGE_CAPTIONS_UP_TO;
  const at = (id: string) => layout.positions.get(id) ?? { x: 0, y: 0 };
  return [
    ...network.nodes.map((node) => {
      const label = nodeCaption(node, 18);
      const { dx, dy, rotation } = captionPlacement(layout.angles.get(node.id) ?? 0, label, fontSize);
      return {
        data: { id: node.id, label, kind: node.type, value: node.value, title: `${kindName(node.type)} ${displayValue(node)}`, dx, dy, rotation },
        position: at(node.id),
        classes: [node.subject ? 'subject' : '', node.fraudster ? 'fraudster' : '', path.has(node.id) ? 'on-path' : ''].filter(Boolean).join(' '),
      };
    }),
    ...network.edges.map((edge, index) => {
      const highlighted = onPath(pairs, edge);
      const length = Math.hypot(at(edge.target).x - at(edge.source).x, at(edge.target).y - at(edge.source).y);
      // No longer than its link (a short link between neighbours gets a short caption)...
      const room = Math.max(6, Math.floor(((length - 2 * NODE_RADIUS) * 0.85) / (edgeFontSize(fontSize) * 0.6)));
      const label = captions || highlighted ? ellipsis(edgeCaption(edgeAttribute(edge, nodes), 22), room) : '';
      // ...and nearer the far end: the subject's side is where links crowd.
      const offset = Math.min(length / 2, Math.max(length / 3, captionWidth(label, edgeFontSize(fontSize)) / 2 + NODE_RADIUS + 2));
      return {
        data: { id: `edge-${index}`, source: edge.source, target: edge.target, label, offset },
        classes: highlighted ? 'on-path' : '',
      };
    }),
  ];
}

function networkStyle(fontSize: number): cytoscape.StylesheetStyle[] {
  return [
    {
      selector: 'node',
      style: {
        'background-color': (node: cytoscape.NodeSingular) => KIND_COLOURS[String(node.data('kind'))] ?? '#4a5563',
        label: 'data(label)',
        'font-size': fontSize,
        color: '#1b1f24',
        'text-halign': 'center',
        'text-valign': 'center',
        'text-rotation': 'data(rotation)' as unknown as number,
        'text-margin-x': 'data(dx)' as unknown as number,
        'text-margin-y': 'data(dy)' as unknown as number,
        'text-wrap': 'wrap',
        'text-max-width': `${fontSize * 16}px`,
        width: NODE_RADIUS * 2,
        height: NODE_RADIUS * 2,
        'min-zoomed-font-size': 6,
      },
    },
    { selector: 'node.fraudster', style: { 'background-color': '#c62828', shape: 'diamond', color: '#a01818', 'font-weight': 'bold' } },
    { selector: 'node.subject', style: { 'border-width': 3, 'border-color': '#111827', 'font-weight': 'bold' } },
    { selector: 'node.on-path', style: { 'border-width': 3, 'border-color': PATH_COLOUR } },
    {
      selector: 'edge',
      style: {
        width: 1.2,
        'line-color': '#9aa4b2',
        'curve-style': 'straight',
        'target-label': 'data(label)',
        'target-text-offset': 'data(offset)' as unknown as number,
        'font-size': edgeFontSize(fontSize),
        color: '#4d5662',
        'target-text-rotation': 'autorotate',
        'text-background-color': '#ffffff',
        'text-background-opacity': 0.85,
        'text-background-padding': '1px',
        'min-zoomed-font-size': 6,
      },
    },
    { selector: 'edge.on-path', style: { width: 4, 'line-color': PATH_COLOUR, color: '#8a3200', 'z-index': 10 } },
  ];
}

/**
 * The subject's neighbourhood drawn by cytoscape on one circle (network-layout.ts: no edge passes
 * through a node), the subject first at the top; each caption points away from the circle so
 * captions do not overlap; each link says what its ends share; the path to the nearest fraudster
 * drawn thick in orange. A customer or supplier node opens its page.
 */
export function NetworkGraph({ network }: { network: Network }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current) return undefined;
    const fontSize = fontSizeFor(network.nodes.length);
    const layout = circleLayout(
      network.nodes.map((node) => node.id),
      network.edges,
      network.nodes.find((node) => node.subject)?.id,
      { nodeRadius: NODE_RADIUS + 3, gap: 4, spacing: fontSize * 2.6, minRadius: 150 },
    );
    const cy = cytoscape({
      container: container.current,
      elements: networkElements(network, layout, fontSize),
      style: networkStyle(fontSize),
      layout: { name: 'preset', fit: true, padding: 24 },
      maxZoom: 2.5,
      wheelSensitivity: 0.3,
    });
    // A large circle fits the box by zooming out; below this the analyst zooms in on what matters.
    if (cy.zoom() < 0.35) {
      cy.zoom(0.35);
      cy.center(cy.$('node.subject'));
    }
    cy.on('tap', 'node', (event) => {
      const kind = String(event.target.data('kind'));
      if (kind === 'customer' || kind === 'supplier') navigate({ page: 'subject', subjectType: kind, subjectId: String(event.target.data('value')) });
    });
    return () => cy.destroy();
  }, [network]);

  return (
    <div
      class="network"
      ref={container}
      role="img"
      aria-label={`Network of ${network.nodes.length} nodes and ${network.edges.length} links on one circle; the tables below list them`}
      data-node-count={network.nodes.length}
      data-edge-count={network.edges.length}
      data-path={(network.pathToFraudster ?? []).join(' ')}
    />
  );
}
