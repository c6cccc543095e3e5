import { formatMoney, formatStructured, formatTime } from '../format';
import type { Evidence, EvidenceDispute, EvidenceRecord } from '../types';
import { ActionBadge, Section } from './common';

/** A dispute in one line: "CHARGEBACK (fraudulent), lost, forgiven, Nov 29, 2026, 10:02:11". */
export function DisputeText({ dispute }: { dispute: EvidenceDispute }) {
  const parts = [
    `${dispute.status ?? 'dispute'}${dispute.reason ? ` (${dispute.reason})` : ''}`,
    dispute.outcome?.toLowerCase(),
    dispute.forgiven ? 'forgiven' : undefined,
    dispute.amount === undefined ? undefined : formatMoney(dispute.amount, dispute.currency),
    formatTime(dispute.at),
  ].filter(Boolean);
  return <div class="dispute">{parts.join(', ')}</div>;
}

function Records({ title, id, records, idOf }: { title: string; id: string; records: EvidenceRecord[]; idOf: (record: EvidenceRecord) => string }) {
  if (records.length === 0) return null;
  return (
    <Section title={title} id={id}>
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Id</th>
            <th scope="col">Amount</th>
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody>
          {records.map((record, index) => (
            <tr key={index}>
              <td>{formatTime(record.at)}</td>
              <td class="mono">{idOf(record)}</td>
              <td class="amount">{formatMoney(record.amount, record.currency)}</td>
              <td>
                {record.decision ? (
                  <>
                    <ActionBadge action={record.decision.action} /> <span class="score">{record.decision.score ?? '—'}</span>
                  </>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

/** Addresses and IP addresses seen, then the orders, refunds and disputes, newest first. */
export function History({ evidence }: { evidence: Evidence }) {
  const addresses = evidence.addresses ?? [];
  const ips = evidence.ips ?? [];
  const disputes = evidence.disputes ?? [];
  return (
    <>
      <div class="columns">
        <Section title="Addresses" id="addresses">
          {addresses.length === 0 ? <p class="muted">No address.</p> : null}
          <ul>
            {addresses.map((entry, index) => (
              <li key={index}>
                <strong>{entry.kind}</strong>: {formatStructured(entry.address)} <span class="muted">(last {formatTime(entry.lastSeen)})</span>
              </li>
            ))}
          </ul>
        </Section>
        <Section title="IP addresses" id="ips">
          {ips.length === 0 ? <p class="muted">No IP address.</p> : null}
          <ul>
            {ips.map((ip) => (
              <li key={ip.address}>
                <span class="mono">{ip.address}</span>
                {ip.country ? ` (${ip.country})` : ''} <span class="muted">{sighting(ip)}</span>
              </li>
            ))}
          </ul>
        </Section>
      </div>
      <Records title="Orders" id="orders" records={evidence.orders ?? []} idOf={(record) => record.orderId ?? '—'} />
      <Records title="Refunds" id="refunds" records={evidence.refunds ?? []} idOf={(record) => record.refundId ?? record.transactionId ?? '—'} />
      {disputes.length > 0 ? (
        <Section title="Disputes and chargebacks" id="disputes">
          {disputes.map((dispute, index) => (
            <div key={index}>
              {dispute.transactionId ? <span class="mono">{dispute.transactionId}: </span> : null}
              <DisputeText dispute={dispute} />
            </div>
          ))}
        </Section>
      ) : null}
    </>
  );
}

const sighting = (seen: { count?: number; lastSeen?: number }) => [seen.count === undefined ? '' : `${seen.count} ${seen.count === 1 ? 'decision' : 'decisions'}`, seen.lastSeen ? `last ${formatTime(seen.lastSeen)}` : ''].filter(Boolean).join(', ');
