import { useState } from 'preact/hooks';
import { type Api, dataOf } from '../api';
import { formatRatio, formatTime, fromLocalInput } from '../format';
import { href } from '../router';
import type { Action, Backtest, BacktestMatch, RuleDraft } from '../types';
import { ActionBadge, ErrorNotice, FieldList, Section } from './common';

const ACTIONS: Action[] = ['ALLOW', 'REVIEW', 'PREVENT'];

/** An amount in major units with its currency, in the browser's locale. */
function formatMajor(amount: number | undefined, currency: string | undefined): string {
  if (amount === undefined) return '—';
  if (currency === undefined || !/^[A-Z]{3}$/.test(currency)) return String(amount);
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

/**
 * What the rule as drafted would have changed over past decisions of its checkpoint (ADR-0011):
 * the checkpoint's other rules stay in force, and an edit of a stored rule takes its place. The
 * window defaults to the data set's period of the checkpoint (its first to its last decision),
 * so imported or simulated history is evaluated; the answer lists the decisions it changed.
 */
export function BacktestForm({ api, draft, ruleId }: { api: Api; draft: RuleDraft; ruleId: number | 'new' }) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [result, setResult] = useState<Backtest | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function run(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const tried = { name: draft.name || 'draft', expression: draft.expression, action: draft.action };
      const answer = await api.send<{ data: Backtest }>('POST', '/v2/rules/backtest', {
        checkpoint: draft.checkpoint,
        from: fromLocalInput(from),
        to: fromLocalInput(to),
        // An edit of a stored rule takes that rule's place; a new rule is added to the others.
        rules: [ruleId === 'new' ? tried : { ruleId, ...tried }],
      });
      setResult(dataOf(answer));
    } catch (failure) {
      setError(failure);
      setResult(null);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Backtest" id="backtest">
      <form class="filters" onSubmit={(event) => void run(event)}>
        <label>
          From
          <input type="datetime-local" aria-describedby="backtest-window" value={from} onInput={(event) => setFrom(event.currentTarget.value)} />
        </label>
        <label>
          To
          <input type="datetime-local" aria-describedby="backtest-window" value={to} onInput={(event) => setTo(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy || !draft.expression.trim()}>
          {busy ? 'Running…' : 'Backtest this draft'}
        </button>
      </form>
      <p id="backtest-window" class="muted">
        Left blank: the data set’s whole period for this checkpoint, from its first decision to its last. The other rules of the checkpoint stay in force{ruleId === 'new' ? '' : '; this draft takes the stored rule’s place'}.
      </p>
      <ErrorNotice error={error} />
      {result ? <BacktestResult result={result} checkpoint={draft.checkpoint} /> : null}
    </Section>
  );
}

function BacktestResult({ result, checkpoint }: { result: Backtest; checkpoint: string }) {
  return (
    <div class="backtest-result" aria-live="polite">
      <p>
        <strong>{result.evaluated}</strong> decisions evaluated from {formatTime(result.from)} to {formatTime(result.to)}; the rule triggered on{' '}
        {result.rules.map((rule) => rule.triggered).reduce((a, b) => a + b, 0)}.
      </p>
      <table>
        <caption>Actions before and after</caption>
        <thead>
          <tr>
            <th scope="col">Action</th>
            <th scope="col">Before</th>
            <th scope="col">After</th>
          </tr>
        </thead>
        <tbody>
          {ACTIONS.map((action) => (
            <tr key={action}>
              <th scope="row">{action}</th>
              <td>{result.actions.before[action] ?? 0}</td>
              <td>{result.actions.after[action] ?? 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.changed.length > 0 ? (
        <ul class="changes">
          {result.changed.map((change) => (
            <li key={`${change.from}-${change.to}`}>
              {change.count} from {change.from} to {change.to}
            </li>
          ))}
        </ul>
      ) : (
        <p>No action would change.</p>
      )}
      <FieldList
        fields={[
          ['Labelled fraud (triggered)', `${result.labelled.fraud} (${result.labelled.fraudTriggered})`],
          ['Labelled genuine (triggered)', `${result.labelled.genuine} (${result.labelled.genuineTriggered})`],
          ['Precision', formatRatio(result.labelled.precision)],
          ['Recall', formatRatio(result.labelled.recall)],
        ]}
      />
      <BacktestMatches matches={result.matches} checkpoint={checkpoint} />
    </div>
  );
}

/** The decisions the draft changed or triggered on, newest first: the evidence behind the counts. */
function BacktestMatches({ matches, checkpoint }: { matches: BacktestMatch[]; checkpoint: string }) {
  if (matches.length === 0) return <p class="muted">No decision matched.</p>;
  const subjectType = checkpoint === 'payout' ? 'supplier' : 'customer';
  return (
    <table class="backtest-matches">
      <caption>
        Matching decisions ({matches.length}
        {matches.length >= 200 ? ', the newest 200' : ''})
      </caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Subject</th>
          <th scope="col">Amount</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
          <th scope="col">Known now</th>
        </tr>
      </thead>
      <tbody>
        {matches.map((match) => (
          <tr key={match.scoreId} class={match.before === match.after ? '' : 'differs'}>
            <td>{formatTime(match.timestamp)}</td>
            <td>{match.subjectId ? <a href={href({ page: 'subject', subjectType, subjectId: match.subjectId })}>{match.subjectId}</a> : '—'}</td>
            <td>{formatMajor(match.amount, match.currency)}</td>
            <td>
              <ActionBadge action={match.before} />
            </td>
            <td>
              <ActionBadge action={match.after} />
            </td>
            <td>{match.outcome ?? 'unknown'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
