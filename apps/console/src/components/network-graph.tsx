import cytoscape from 'cytoscape';
import { useEffect, useRef } from 'preact/hooks';
import { navigate } from '../router';
import type { Network } from '../types';

const KIND_COLOURS: Record<string, string> = {
  customer: '#1d5fb4',
  supplier: '#6b3fa0',
  device: '#2f7d4f',
  paymentMethod: '#a35c00',
  email: '#00707a',
  phone: '#7a5200',
  ipAddress: '#555f6d',
};

/**
 * The subject's neighbourhood drawn by cytoscape: breadth-first rings around the subject (its
 * own layout, no layout code here), fraudsters in red, the subject outlined. A customer or
 * supplier node opens its page.
 */
export function NetworkGraph({ network }: { network: Network }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current) return undefined;
    const subject = network.nodes.find((node) => node.subject);
    const cy = cytoscape({
      container: container.current,
      elements: [
        ...network.nodes.map((node) => ({
          data: { id: node.id, label: node.fraudster ? `${node.value} (fraudster)` : node.value, kind: node.type, value: node.value },
          classes: [node.subject ? 'subject' : '', node.fraudster ? 'fraudster' : ''].filter(Boolean).join(' '),
        })),
        ...network.edges.map((edge, index) => ({ data: { id: `edge-${index}`, source: edge.source, target: edge.target } })),
      ],
      style: [
        {
          selector: 'node',
          style: {
            'background-color': (node: cytoscape.NodeSingular) => KIND_COLOURS[String(node.data('kind'))] ?? '#4a5563',
            label: 'data(label)',
            'font-size': 9,
            color: '#1b1f24',
            'text-valign': 'bottom',
            'text-margin-y': 3,
            width: 18,
            height: 18,
          },
        },
        { selector: 'node.fraudster', style: { 'background-color': '#c62828', shape: 'diamond', width: 24, height: 24, color: '#a01818', 'font-weight': 'bold' } },
        { selector: 'node.subject', style: { 'border-width': 4, 'border-color': '#111827', width: 30, height: 30, 'font-size': 11, 'font-weight': 'bold' } },
        { selector: 'edge', style: { width: 1.2, 'line-color': '#9aa4b2', 'curve-style': 'straight' } },
      ],
      layout: subject ? { name: 'breadthfirst', roots: [subject.id], circle: true, spacingFactor: 1.1, animate: false } : { name: 'cose', animate: false },
      wheelSensitivity: 0.3,
    });
    cy.on('tap', 'node', (event) => {
      const kind = String(event.target.data('kind'));
      if (kind === 'customer' || kind === 'supplier') navigate({ page: 'subject', subjectType: kind, subjectId: String(event.target.data('value')) });
    });
    return () => cy.destroy();
  }, [network]);

  return <div class="network" ref={container} role="img" aria-label={`Network of ${network.nodes.length} nodes and ${network.edges.length} links; the table below lists them`} data-node-count={network.nodes.length} />;
}
