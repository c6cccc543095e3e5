import { useEffect, useState } from 'preact/hooks';
import { type Api, dataOf } from '../api';
import { ErrorNotice, FieldList, Section, useLoad } from '../components/common';
import { THRESHOLD_CHECKPOINTS, formatTime } from '../format';
import type { Account, Delivery, Thresholds } from '../types';

type ThresholdInputs = Record<string, { review: string; prevent: string }>;

const inputsOf = (thresholds: Thresholds | null | undefined): ThresholdInputs =>
  Object.fromEntries(THRESHOLD_CHECKPOINTS.map((checkpoint) => [checkpoint, { review: String(thresholds?.[checkpoint]?.review ?? ''), prevent: String(thresholds?.[checkpoint]?.prevent ?? '') }]));

/** The account: thresholds, time zone, each data set's review callbacks and allowed origins (PATCH /v2/account/settings), deliveries, keys. */
export function Settings({ api }: { api: Api }) {
  const account = useLoad(async () => dataOf(await api.get<{ data: Account }>('/v2/account')), 'account');
  return (
    <main id="main" tabIndex={-1}>
      <h1>Settings</h1>
      <ErrorNotice error={account.error} />
      {account.data ? (
        <>
          <Section title="Account" id="account">
            <FieldList
              fields={[
                ['Name', account.data.name],
                ['Account id', <span class="mono">{account.data.accountId}</span>],
                ['Data set of this key', account.data.environment],
              ]}
            />
          </Section>
          {account.data.environment !== 'live' ? (
            <p class="notice" role="note">
              Signed in with a sandbox key: the settings below apply to live traffic too, so changing them needs a live secret key (sk_live_…).
            </p>
          ) : null}
          <ThresholdsForm api={api} account={account.data} onSaved={account.reload} />
          <TimeZoneForm api={api} account={account.data} onSaved={account.reload} />
          <CallbackForm api={api} account={account.data} dataSet="live" onSaved={account.reload} />
          <CallbackForm api={api} account={account.data} dataSet="test" onSaved={account.reload} />
          <OriginsForm api={api} account={account.data} onSaved={account.reload} />
          <Keys account={account.data} />
        </>
      ) : null}
      <Deliveries api={api} />
    </main>
  );
}

function ThresholdsForm({ api, account, onSaved }: { api: Api; account: Account; onSaved: () => void }) {
  const [inputs, setInputs] = useState<ThresholdInputs>(() => inputsOf(account.settings.scoreThresholds));
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState('');
  useEffect(() => setInputs(inputsOf(account.settings.scoreThresholds)), [account]);

  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    setSaved('');
    // The map is replaced whole: a checkpoint left blank keeps the defaults.
    const entries = Object.entries(inputs).filter(([, value]) => value.review !== '' || value.prevent !== '');
    const scoreThresholds = entries.length === 0 ? null : Object.fromEntries(entries.map(([checkpoint, value]) => [checkpoint, { review: Number(value.review), prevent: Number(value.prevent) }]));
    try {
      await api.send('PATCH', '/v2/account/settings', { scoreThresholds });
      setSaved('Thresholds saved; they apply from the next request.');
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  const set = (checkpoint: string, which: 'review' | 'prevent', value: string) => setInputs({ ...inputs, [checkpoint]: { ...inputs[checkpoint], [which]: value } });
  return (
    <Section title="Score thresholds" id="thresholds">
      <p class="muted">The model score (0–100) from which a checkpoint answers REVIEW and PREVENT. Blank: the defaults.</p>
      <form onSubmit={(event) => void save(event)}>
        <table>
          <thead>
            <tr>
              <th scope="col">Checkpoint</th>
              <th scope="col">REVIEW from</th>
              <th scope="col">PREVENT from</th>
            </tr>
          </thead>
          <tbody>
            {THRESHOLD_CHECKPOINTS.map((checkpoint) => (
              <tr key={checkpoint}>
                <th scope="row">{checkpoint}</th>
                {(['review', 'prevent'] as const).map((which) => (
                  <td key={which}>
                    <input
                      type="number"
                      min={0}
                      max={100}
                      step={1}
                      aria-label={`${checkpoint} ${which} threshold`}
                      value={inputs[checkpoint]?.[which] ?? ''}
                      onInput={(event) => set(checkpoint, which, event.currentTarget.value)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <button type="submit">Save thresholds</button>
        <p role="status">{saved}</p>
        <ErrorNotice error={error} />
      </form>
    </Section>
  );
}

/** The zones this browser knows, offered as suggestions; the server judges what is sent. */
const KNOWN_TIME_ZONES: readonly string[] = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

function TimeZoneForm({ api, account, onSaved }: { api: Api; account: Account; onSaved: () => void }) {
  const [zone, setZone] = useState(account.settings.timeZone ?? '');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState('');
  useEffect(() => setZone(account.settings.timeZone ?? ''), [account]);

  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    setSaved('');
    try {
      await api.send('PATCH', '/v2/account/settings', { timeZone: zone.trim() || null });
      setSaved(zone.trim() ? 'Time zone saved; the next checkpoints read their hours in it.' : 'Hours are read in UTC.');
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Section title="Time zone" id="time-zone">
      <p class="muted">
        Where your customers' hours are read: the hour of day, the night and the weekend that checkpoints weigh are this zone's, daylight-saving time included. An IANA name such as
        Europe/London or America/New_York. This browser's zone: {Intl.DateTimeFormat().resolvedOptions().timeZone}.
      </p>
      <form class="rule-form" onSubmit={(event) => void save(event)}>
        <label for="time-zone-name">Time zone (blank: UTC)</label>
        <input id="time-zone-name" type="text" list="time-zone-names" maxLength={64} autoComplete="off" spellcheck={false} value={zone} placeholder="UTC" onInput={(event) => setZone(event.currentTarget.value)} />
        <datalist id="time-zone-names">
          {KNOWN_TIME_ZONES.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <button type="submit">Save time zone</button>
        <p role="status">{saved}</p>
        <ErrorNotice error={error} />
      </form>
    </Section>
  );
}

/**
 * Each data set has its own callbacks (ADR-0016): a sandbox label never reaches the live
 * receiver. The settings' names of each, and how the form names it.
 */
const CALLBACK_DATA_SETS = {
  live: { url: 'callbackUrl', secret: 'callbackSecret', secretSet: 'callbackSecretSet', title: 'Review callbacks: live labels', id: 'callbacks-live' },
  test: { url: 'testCallbackUrl', secret: 'testCallbackSecret', secretSet: 'testCallbackSecretSet', title: 'Review callbacks: sandbox labels', id: 'callbacks-test' },
} as const;

function CallbackForm({ api, account, dataSet, onSaved }: { api: Api; account: Account; dataSet: keyof typeof CALLBACK_DATA_SETS; onSaved: () => void }) {
  const names = CALLBACK_DATA_SETS[dataSet];
  const [url, setUrl] = useState(account.settings[names.url] ?? '');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState('');
  useEffect(() => setUrl(account.settings[names.url] ?? ''), [account]);

  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    setSaved('');
    try {
      // A blank secret keeps the one set; the secret is never shown back.
      await api.send('PATCH', '/v2/account/settings', { [names.url]: url.trim() || null, ...(secret ? { [names.secret]: secret } : {}) });
      setSecret('');
      setSaved(url.trim() ? 'Callbacks go to this URL from the next attempt, pending ones included.' : 'Callbacks are off.');
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Section title={names.title} id={names.id}>
      <p class="muted">
        {dataSet === 'live' ? 'Label changes made with live keys are POSTed here.' : 'Label changes made with sandbox keys are POSTed here, never to the live URL.'} An https URL that
        resolves to public internet addresses (internal receivers only where the operator allows them).
      </p>
      <form class="rule-form" onSubmit={(event) => void save(event)}>
        <label for={`${names.id}-url`}>Callback URL (blank: off)</label>
        <input id={`${names.id}-url`} type="url" value={url} placeholder="https://hooks.example/ringfence" onInput={(event) => setUrl(event.currentTarget.value)} />
        <label for={`${names.id}-secret`}>Signing secret (at least 16 characters; blank keeps the current one)</label>
        <input id={`${names.id}-secret`} type="password" autoComplete="new-password" minLength={16} value={secret} onInput={(event) => setSecret(event.currentTarget.value)} />
        <p class="muted">{account.settings[names.secretSet] ? 'A secret is set.' : 'No secret is set.'}</p>
        <button type="submit">Save {dataSet === 'live' ? 'live' : 'sandbox'} callback</button>
        <p role="status">{saved}</p>
        <ErrorNotice error={error} />
      </form>
    </Section>
  );
}

/** One origin a line, as the form shows and reads a list. */
const linesOf = (origins: readonly string[] | undefined) => (origins ?? []).join('\n');
const originsIn = (text: string) => text.split(/\s+/).filter((line) => line !== '');

/** Each data set's browser origins (ADR-0015): the pages that may call the client SDK endpoints with its publishable key. */
function OriginsForm({ api, account, onSaved }: { api: Api; account: Account; onSaved: () => void }) {
  const [live, setLive] = useState(linesOf(account.settings.allowedOrigins));
  const [test, setTest] = useState(linesOf(account.settings.testAllowedOrigins));
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState('');
  useEffect(() => {
    setLive(linesOf(account.settings.allowedOrigins));
    setTest(linesOf(account.settings.testAllowedOrigins));
  }, [account]);

  async function save(event: Event) {
    event.preventDefault();
    setError(null);
    setSaved('');
    try {
      await api.send('PATCH', '/v2/account/settings', { allowedOrigins: originsIn(live), testAllowedOrigins: originsIn(test) });
      setSaved('Origins saved; they apply from the next request.');
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Section title="Allowed origins of the client SDKs" id="allowed-origins">
      <p class="muted">
        The pages whose browsers may send session events and fetch the card-encryption key with a publishable key, one exact origin a line (https://shop.example,
        http://127.0.0.1:8080: no path, no wildcard). A request from any other origin is refused and nothing of it is kept. Blank: no browser may.
      </p>
      <form class="rule-form" onSubmit={(event) => void save(event)}>
        <label for="allowed-origins-live">Live data set (pk_live_…)</label>
        <textarea id="allowed-origins-live" rows={3} spellcheck={false} value={live} placeholder="https://shop.example" onInput={(event) => setLive(event.currentTarget.value)} />
        <label for="allowed-origins-test">Sandbox data set (pk_test_…)</label>
        <textarea id="allowed-origins-test" rows={3} spellcheck={false} value={test} placeholder="http://127.0.0.1:8080" onInput={(event) => setTest(event.currentTarget.value)} />
        <button type="submit">Save origins</button>
        <p role="status">{saved}</p>
        <ErrorNotice error={error} />
      </form>
    </Section>
  );
}

function Keys({ account }: { account: Account }) {
  return (
    <Section title="Keys (prefixes only)" id="keys">
      <table>
        <thead>
          <tr>
            <th scope="col">Prefix</th>
            <th scope="col">Kind</th>
            <th scope="col">Data set</th>
            <th scope="col">Created</th>
            <th scope="col">Revoked</th>
          </tr>
        </thead>
        <tbody>
          {account.keys.map((key) => (
            <tr key={key.keyId}>
              <td class="mono">
                {key.prefix}…{key.current ? ' (this session)' : ''}
              </td>
              <td>{key.kind}</td>
              <td>{key.environment}</td>
              <td>{formatTime(key.createdAt)}</td>
              <td>{key.revokedAt ? formatTime(key.revokedAt) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

const DELIVERIES_PAGE = 20;

function Deliveries({ api }: { api: Api }) {
  const [before, setBefore] = useState<string | undefined>(undefined);
  const [shown, setShown] = useState<Delivery[]>([]);
  const page = useLoad(async () => dataOf(await api.get<{ data: { deliveries: Delivery[] } }>('/v2/callbacks/deliveries', { limit: DELIVERIES_PAGE, before })).deliveries, before ?? '');
  useEffect(() => {
    if (page.data) setShown((previous) => (before ? [...previous, ...(page.data ?? [])] : (page.data ?? [])));
  }, [page.data]);
  return (
    <Section title="Callback deliveries of this key's data set, newest first" id="deliveries">
      <ErrorNotice error={page.error} />
      {page.data && shown.length === 0 ? <p class="muted">No delivery.</p> : null}
      {shown.length > 0 ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Subject</th>
              <th scope="col">Review</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Next attempt</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((delivery) => {
              const last = delivery.attempts[delivery.attempts.length - 1];
              return (
                <tr key={delivery.deliveryId}>
                  <td>{formatTime(delivery.createdAt)}</td>
                  <td class="mono">
                    {delivery.event.subjectType} {delivery.event.subjectId}
                  </td>
                  <td>{delivery.event.review}</td>
                  <td>{delivery.status}</td>
                  <td>
                    {delivery.attempts.length}
                    {/* The class of the last failure (timeout, refused, tls, address, …), or the status answered. */}
                    {last ? ` (last: ${last.httpStatus ?? last.error ?? '—'})` : ''}
                  </td>
                  <td>{formatTime(delivery.nextAttemptAt)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {page.data && page.data.length === DELIVERIES_PAGE ? (
        <button type="button" onClick={() => setBefore(shown[shown.length - 1]?.deliveryId)}>
          Older deliveries
        </button>
      ) : null}
    </Section>
  );
}
