import { useMemo, useState } from 'preact/hooks';
import { type Api, dataOf } from '../api';
import { formatTime, formatValue } from '../format';
import { href } from '../router';
import type { Network, NetworkNode } from '../types';
import { ErrorNotice, FieldList, Section, useLoad } from './common';
import { NetworkGraph } from './network-graph';
import { attributeKinds, displayValue, edgeAttribute, isolate, kindName, labelsOf, onPath, pathPairs } from './network-model';

const NETWORK_LIMIT = 150;
/** The connect statistics an analyst reads first (docs/api.md "Connect statistics"). */
const KEY_STATISTICS = ['hopsToFraud', 'reviewedFraudsterCount', 'reviewedGenuineCount', 'count', 'customerCount', 'deviceCount', 'emailCount', 'phoneCount', 'cardCount', 'maxDepthReached', 'maxNodesHit'];
const statistic = (value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(3) : formatValue(value));

function NodeLink({ node }: { node: NetworkNode | undefined }) {
  if (!node) return <span>—</span>;
  if (node.type === 'customer' || node.type === 'supplier') return <a href={href({ page: 'subject', subjectType: node.type, subjectId: node.value })}>{node.value}</a>;
  return (
    <span>
      {kindName(node.type)} <span class="mono">{displayValue(node)}</span>
    </span>
  );
}

/** The subject's network: the drawing, the path to the nearest fraudster, the tables, the statistics. */
export function NetworkSection({ api, base, subjectKey }: { api: Api; base: string; subjectKey: string }) {
  const [depth, setDepth] = useState(2);
  const [kind, setKind] = useState('');
  const network = useLoad(async () => dataOf(await api.get<{ data: Network }>(`${base}/network`, { depth, limit: NETWORK_LIMIT })), `${subjectKey}@${depth}`);
  const data = network.data;
  const shown = useMemo(() => (data ? isolate(data, kind) : undefined), [data, kind]);
  const kinds = useMemo(() => (data ? attributeKinds(data) : []), [data]);
  return (
    <Section title="Network" id="network">
      <div class="toolbar">
        <label>
          Hops from the subject
          <select
            value={depth}
            onChange={(event) => {
              // Another depth reads another network, whose links may lack the kind chosen.
              setKind('');
              setDepth(Number(event.currentTarget.value));
            }}
          >
            {[1, 2, 3].map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label>
          Show the links of
          <select id="network-kind" value={kind} onChange={(event) => setKind(event.currentTarget.value)}>
            <option value="">every shared attribute</option>
            {kinds.map((name) => (
              <option key={name} value={name}>
                {kindName(name)} only
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorNotice error={network.error} />
      {data && shown ? (
        <>
          <p class="network-count" role="status">
            {data.truncated ? `Showing ${data.nodes.length} of more nodes (capped at ${NETWORK_LIMIT})` : `${data.nodes.length} nodes`}, {data.edges.length} links
            {kind ? `; drawn: the ${shown.edges.length} ${kindName(kind)} links` : ''}.
          </p>
          <p class="legend">
            <span class="swatch subject-swatch" aria-hidden="true" /> this subject <span class="swatch fraudster-swatch" aria-hidden="true" /> fraudster{' '}
            <span class="swatch path-swatch" aria-hidden="true" /> path to the nearest fraudster
          </p>
          <FraudPath network={data} />
          <NetworkGraph network={shown} />
          <NetworkTables network={shown} />
          <NetworkStatistics statistics={data.statistics} />
        </>
      ) : null}
    </Section>
  );
}

/** The path to the nearest fraudster in words: what the drawing highlights, for every reader. */
function FraudPath({ network }: { network: Network }) {
  const path = network.pathToFraudster;
  if (path === undefined) return null;
  if (path === null || path.length === 0) return <p class="fraud-path muted">No fraudster within these hops.</p>;
  const nodes = new Map(network.nodes.map((node) => [node.id, node]));
  return (
    <p class="fraud-path">
      Nearest fraudster, {path.length - 1} {path.length === 2 ? 'hop' : 'hops'}:{' '}
      {path.map((id, index) => (
        <span key={id}>
          {index > 0 ? ' → ' : ''}
          <NodeLink node={nodes.get(id) ?? { id, type: id.split(':')[0] ?? '', value: id.slice(id.indexOf(':') + 1) }} />
        </span>
      ))}
    </p>
  );
}

function NetworkTables({ network }: { network: Network }) {
  return (
    <>
      <NodesTable network={network} />
      <LinksTable network={network} />
    </>
  );
}

function NodesTable({ network }: { network: Network }) {
  return (
    <details>
      <summary>The nodes as a table</summary>
      <table class="network-nodes">
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Value</th>
            <th scope="col">Hops</th>
            <th scope="col">Score</th>
            <th scope="col">Labels</th>
            <th scope="col">Marked</th>
          </tr>
        </thead>
        <tbody>
          {network.nodes.map((node) => (
            <tr key={node.id}>
              <td>{kindName(node.type)}</td>
              <td class="mono">
                <NodeLink node={{ ...node, type: node.type === 'customer' || node.type === 'supplier' ? node.type : '' }} />
              </td>
              <td>{node.depth ?? ''}</td>
              <td>{node.score ?? ''}</td>
              <td>{labelsOf(node)}</td>
              <td>{[node.subject ? 'subject' : '', node.fraudster ? 'fraudster' : '', network.pathToFraudster?.includes(node.id) ? 'on the path' : ''].filter(Boolean).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function LinksTable({ network }: { network: Network }) {
  const nodes = new Map(network.nodes.map((node) => [node.id, node]));
  const pairs = pathPairs(network.pathToFraudster);
  return (
    <details>
      <summary>The links and what they share</summary>
      <table class="network-links">
        <thead>
          <tr>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">Shared</th>
            <th scope="col">First seen</th>
          </tr>
        </thead>
        <tbody>
          {network.edges.map((edge, index) => {
            const attribute = edgeAttribute(edge, nodes);
            return (
              <tr key={index} class={onPath(pairs, edge) ? 'on-path' : ''}>
                <td>
                  <NodeLink node={nodes.get(edge.source)} />
                </td>
                <td>
                  <NodeLink node={nodes.get(edge.target)} />
                </td>
                <td>
                  {kindName(attribute.kind)} <span class="mono">{attribute.value}</span>
                </td>
                <td>{formatTime(edge.firstSeen)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </details>
  );
}

function NetworkStatistics({ statistics }: { statistics: Network['statistics'] }) {
  return (
    <>
      <h3>Connect statistics</h3>
      <FieldList fields={KEY_STATISTICS.filter((name) => name in (statistics ?? {})).map((name) => [name, statistic(statistics[name])])} />
      <details>
        <summary>Every statistic</summary>
        <FieldList
          fields={Object.entries(statistics ?? {})
            .filter(([, value]) => value !== null && typeof value !== 'object')
            .map(([name, value]) => [name, statistic(value)])}
        />
      </details>
    </>
  );
}
