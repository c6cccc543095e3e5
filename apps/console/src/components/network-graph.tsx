import cytoscape from 'cytoscape';
import { useEffect, useRef } from 'preact/hooks';
import { navigate } from '../router';
import type { Network } from '../types';
import { type CircleLayout, circleLayout } from './network-layout';
import { displayValue, edgeAttribute, edgeCaption, kindName, nodeCaption, onPath, pathPairs } from './network-model';

const KIND_COLOURS: Record<string, string> = {
  customer: '#1d5fb4',
  supplier: '#6b3fa0',
  device: '#2f7d4f',
  paymentMethod: '#a35c00',
  email: '#00707a',
  phone: '#7a5200',
  ipAddress: '#555f6d',
};
export const PATH_COLOUR = '#e65100';
/** Every node is drawn this size (model units), whatever its degree: no node dwarfs the others. */
const NODE_RADIUS = 8;
/** Above this many links their captions are left to the table and the highlighted path. */
const EDGE_CAPTIONS_UP_TO = 40;

/** Smaller captions as the network grows, so neighbours' captions keep apart along the circle. */
const fontSizeFor = (count: number) => (count <= 16 ? 14 : count <= 48 ? 10 : 8);

/** The nodes at their places on the circle, each caption pointing outward, and the links. */
function networkElements(network: Network, layout: CircleLayout): cytoscape.ElementDefinition[] {
  const nodes = new Map(network.nodes.map((node) => [node.id, node]));
  const path = new Set(network.pathToFraudster ?? []);
  const pairs = pathPairs(network.pathToFraudster);
  const captions = network.edges.length <= EDGE_CAPTIONS_UP_TO;
  return [
    ...network.nodes.map((node) => {
      const angle = layout.angles.get(node.id) ?? 0;
      const right = Math.cos(angle) >= 0;
      return {
        data: {
          id: node.id,
          label: nodeCaption(node, 18),
          kind: node.type,
          value: node.value,
          title: `${kindName(node.type)} ${displayValue(node)}`,
          // The caption runs outward along the radius: to the right of right-hand nodes, to the left of left-hand ones.
          halign: right ? 'right' : 'left',
          rotation: right ? angle : angle - Math.PI,
        },
        position: layout.positions.get(node.id),
        classes: [node.subject ? 'subject' : '', node.fraudster ? 'fraudster' : '', path.has(node.id) ? 'on-path' : ''].filter(Boolean).join(' '),
      };
    }),
    ...network.edges.map((edge, index) => {
      const highlighted = onPath(pairs, edge);
      return {
        data: { id: `edge-${index}`, source: edge.source, target: edge.target, label: captions || highlighted ? edgeCaption(edgeAttribute(edge, nodes), 22) : '' },
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
        'text-halign': 'data(halign)' as unknown as 'right',
        'text-valign': 'center',
        'text-rotation': 'data(rotation)' as unknown as number,
        'text-margin-x': (node: cytoscape.NodeSingular) => (node.data('halign') === 'right' ? 4 : -4),
        'text-wrap': 'wrap',
        'text-max-width': `${fontSize * 12}px`,
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
        label: 'data(label)',
        'font-size': Math.max(6, fontSize - 2),
        color: '#4d5662',
        'text-rotation': 'autorotate',
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
      elements: networkElements(network, layout),
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
