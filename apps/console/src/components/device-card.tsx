import type { ComponentChildren } from 'preact';
import { type Api, ApiError, dataOf, segment } from '../api';
import { formatTime } from '../format';
import type { Device } from '../types';
import { ErrorNotice, FieldList, useLoad } from './common';

const counts = (eventCounts: Record<string, number>) =>
  Object.entries(eventCounts)
    .map(([type, count]) => `${type} ${count}`)
    .join(', ') || '—';

function deviceFields(data: Device): Array<[string, ComponentChildren]> {
  return [
    ['First seen', formatTime(data.firstSeen)],
    ['Last seen', formatTime(data.lastSeen)],
    ['User agent', data.reported?.userAgent ?? '—'],
    ['Platform', data.reported?.platform ?? '—'],
    ['Time zone', data.reported?.timeZone ?? '—'],
    ['Languages', data.reported?.languages?.join(', ') || '—'],
    ['Screen', data.reported?.screen ? `${data.reported.screen.width} × ${data.reported.screen.height}` : '—'],
    ['Automated browser', data.reported ? (data.reported.webdriver ? 'yes (webdriver)' : 'no') : '—'],
    ['Fingerprint', <span class="mono">{data.reported?.fingerprint ?? '—'}</span>],
    ['Other fingerprints', <span class="mono">{data.fingerprints.filter((print) => print !== data.reported?.fingerprint).join(', ') || '—'}</span>],
    ['Events', counts(data.eventCounts)],
    ['IP addresses', data.ipAddresses.map((ip) => ip.ipAddress).join(', ') || '—'],
    ['Customers', data.customers.map((customer) => customer.customerId).join(', ') || '—'],
    ['Cards', data.cards.map((card) => (card.cardBin ? `${card.cardBin}…${card.cardLastFour ?? ''}` : card.instrumentId)).join(', ') || '—'],
  ];
}

function SessionsTable({ sessions }: { sessions: Device['sessions'] }) {
  if (sessions.length === 0) return null;
  return (
    <table class="sessions">
      <caption>Sessions, oldest first</caption>
      <thead>
        <tr>
          <th scope="col">Session</th>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">Events</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((session) => (
          <tr key={session.sessionId}>
            <td class="mono">{session.sessionId}</td>
            <td>{formatTime(session.firstSeen)}</td>
            <td>{formatTime(session.lastSeen)}</td>
            <td>{counts(session.eventCounts)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * What the web SDK and the checkpoints told of one device (`GET /v2/devices/:deviceId`, issue 36):
 * what the browser reported, its fingerprint, its sessions, addresses, customers and cards.
 */
export function DeviceCard({ api, deviceId }: { api: Api; deviceId: string }) {
  const device = useLoad(async () => {
    try {
      return dataOf(await api.get<{ data: Device }>(`/v2/devices/${segment(deviceId)}`));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }, deviceId);
  const data = device.data;
  return (
    <article class="device" data-device-id={deviceId}>
      <h4>
        Device <span class="mono">{deviceId}</span>
      </h4>
      <ErrorNotice error={device.error} />
      {data === null ? <p class="muted">The service holds nothing more on this device.</p> : null}
      {data ? (
        <>
          <FieldList fields={deviceFields(data)} />
          <SessionsTable sessions={data.sessions} />
        </>
      ) : null}
    </article>
  );
}
