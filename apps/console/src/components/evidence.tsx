import { type Api, ApiError, dataOf, segment } from '../api';
import { formatMoney, formatTime } from '../format';
import type { Evidence, EvidencePayment } from '../types';
import { ActionBadge, ErrorNotice, FieldList, Section, useLoad } from './common';
import { DeviceCard } from './device-card';
import { DisputeText, History } from './evidence-history';
import { ellipsis } from './network-model';
import { PaymentActions } from './payment-review';

/** Devices read in full (GET /v2/devices/:id) on one page; the rest are listed by id. */
const DEVICES_IN_FULL = 5;

/**
 * What the decisions saw of a customer (`GET /v2/customer/:id/evidence`): payments with their
 * cards, addresses, devices and outcomes, spend totals, addresses, devices and IP addresses, in
 * readable units and local time. Each payment can be decided here.
 */
interface EvidenceProps {
  api: Api;
  customerId: string;
  generation?: number;
  /** Called after a payment is decided here, so the page around reads its state again. */
  onReviewed?: () => void;
}

export function EvidenceSection({ api, customerId, generation = 0, onReviewed }: EvidenceProps) {
  const evidence = useLoad(async () => {
    try {
      return dataOf(await api.get<{ data: Evidence }>(`/v2/customer/${segment(customerId)}/evidence`));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }, `${customerId}#${generation}`);
  const data = evidence.data;
  return (
    <>
      <Section title="Payments" id="payments">
        <ErrorNotice error={evidence.error} />
        {data === null ? <p class="muted">No evidence stored for this customer.</p> : null}
        {data ? (
          <Payments api={api} payments={data.payments} onChanged={onReviewed ?? evidence.reload} />
        ) : null}
      </Section>
      {data ? <Profile evidence={data} /> : null}
      {data ? <History evidence={data} /> : null}
      {data ? <Devices api={api} evidence={data} /> : null}
    </>
  );
}

function outcomeOf(payment: EvidencePayment): string {
  if (payment.success === true) return 'succeeded';
  if (payment.success === false) return payment.declineCode ? `declined (${payment.declineCode})` : 'declined';
  return '—';
}

function Payments({ api, payments, onChanged }: { api: Api; payments: EvidencePayment[]; onChanged: () => void }) {
  if (payments.length === 0) return <p class="muted">No payment.</p>;
  return (
    <table class="payments">
      <caption>Newest first</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Amount</th>
          <th scope="col">Outcome</th>
          <th scope="col">Card</th>
          <th scope="col">IP address</th>
          <th scope="col">Device</th>
          <th scope="col">Decision</th>
          <th scope="col">Disputes</th>
          <th scope="col">Review</th>
        </tr>
      </thead>
      <tbody>
        {payments.map((payment) => (
          <PaymentRow key={payment.transactionId} api={api} payment={payment} onChanged={onChanged} />
        ))}
      </tbody>
    </table>
  );
}

function Profile({ evidence }: { evidence: Evidence }) {
  const customer = evidence.customer;
  const spend = Object.entries(evidence.spend ?? {});
  return (
    <div class="columns">
      <Section title="Customer" id="evidence-customer">
        <FieldList
          fields={[
            ['Name', customer.name ?? '—'],
            ['E-mail', customer.email ?? '—'],
            ['Phone', customer.phone ?? '—'],
            ['Country', customer.country ?? '—'],
            ['Created', formatTime(customer.createdAt)],
          ]}
        />
      </Section>
      <Section title="Spend (successful payments)" id="spend">
        {spend.length === 0 ? <p class="muted">No spend recorded.</p> : null}
        <FieldList fields={spend.map(([currency, total]) => [currency, `${formatMoney(total.total, currency)} in ${total.count} ${total.count === 1 ? 'payment' : 'payments'}`])} />
      </Section>
    </div>
  );
}

/** The devices the customer was seen with: listed, and the first few read in full. */
function Devices({ api, evidence }: { api: Api; evidence: Evidence }) {
  const ids = [
    ...new Set([
      ...(evidence.devices ?? []).map((device) => device.deviceId),
      ...evidence.payments.flatMap((payment) => (payment.device ? [payment.device.deviceId] : [])),
    ]),
  ].filter(Boolean);
  return (
    <Section title={`Devices (${ids.length})`} id="devices">
      {ids.length === 0 ? <p class="muted">No device.</p> : null}
      {ids.slice(0, DEVICES_IN_FULL).map((deviceId) => (
        <DeviceCard key={deviceId} api={api} deviceId={deviceId} />
      ))}
      {ids.length > DEVICES_IN_FULL ? <p class="muted">And {ids.slice(DEVICES_IN_FULL).join(', ')}.</p> : null}
    </Section>
  );
}

function PaymentRow({ api, payment, onChanged }: { api: Api; payment: EvidencePayment; onChanged: () => void }) {
  const disputes = payment.disputes ?? [];
  return (
    <tr data-transaction-id={payment.transactionId}>
      <td>
        {formatTime(payment.at)}
        <div class="muted mono">{payment.transactionId}</div>
        {payment.orderId ? <div class="muted">order {payment.orderId}</div> : null}
      </td>
      <td class="amount">{formatMoney(payment.amount, payment.currency)}</td>
      <td>{outcomeOf(payment)}</td>
      <td class="mono">
        {payment.card ? `${payment.card.bin ?? '······'}…${payment.card.last4 ?? '····'}` : '—'}
        {payment.card?.country ? <div class="muted">{payment.card.country}</div> : null}
      </td>
      <td class="mono">
        {payment.ip?.address ?? '—'}
        {payment.ip?.country ? <div class="muted">{payment.ip.country}</div> : null}
      </td>
      <td>
        {payment.device ? <span class="mono">{payment.device.deviceId}</span> : '—'}
        {payment.device?.userAgent ? (
          <div class="muted" title={payment.device.userAgent}>
            {ellipsis(payment.device.userAgent, 48)}
          </div>
        ) : null}
      </td>
      <td>
        {payment.decision ? (
          <>
            <ActionBadge action={payment.decision.action} /> <span class="score">{payment.decision.score ?? '—'}</span>
          </>
        ) : (
          '—'
        )}
      </td>
      <td>{disputes.length === 0 ? 'none' : disputes.map((dispute, index) => <DisputeText key={index} dispute={dispute} />)}</td>
      <td>
        <PaymentActions api={api} transactionId={payment.transactionId} review={payment.review} onChanged={onChanged} />
      </td>
    </tr>
  );
}
