import { useEffect, useState } from 'preact/hooks';
import { type Api, dataOf } from '../api';
import { CheckpointSelect, ErrorNotice, FieldList, Section, useDebounced, useLoad } from '../components/common';
import { formatRatio, formatTime, fromLocalInput, toLocalInput } from '../format';
import { navigate } from '../router';
import type { Action, Backtest, Rule, RuleDraft, RuleState, Validation } from '../types';

const ACTIONS: Action[] = ['ALLOW', 'REVIEW', 'PREVENT'];
const EDITABLE_STATES: RuleState[] = ['active', 'passive'];
const EMPTY: RuleDraft = { name: '', description: '', checkpoint: 'customer', expression: '', action: 'REVIEW', state: 'active' };
/** How long typing must pause before the expression is type-checked by the server. */
const VALIDATE_DELAY_MS = 300;

const draftOf = (rule: Rule): RuleDraft => ({
  name: rule.name,
  description: rule.description ?? '',
  checkpoint: rule.checkpoint,
  expression: rule.expression,
  action: rule.action,
  // A disabled or suspended rule comes back passive unless the analyst chooses otherwise.
  state: rule.state === 'disabled' || rule.state === 'suspended' ? 'passive' : rule.state,
});

/** The draft being edited: the stored rule's fields once read, or an empty rule. */
function useDraft(stored: Rule | undefined, ruleId: number | 'new') {
  const [draft, setDraft] = useState<RuleDraft>(EMPTY);
  useEffect(() => {
    if (stored) setDraft(draftOf(stored));
    else if (ruleId === 'new') setDraft(EMPTY);
  }, [stored, ruleId]);
  return [draft, setDraft] as const;
}

/** Create or edit one rule: its fields with the live type-check, its versions, a backtest. */
export function RuleEditor({ api, ruleId }: { api: Api; ruleId: number | 'new' }) {
  const [generation, setGeneration] = useState(0);
  const stored = useLoad(
    async () => (ruleId === 'new' ? null : dataOf(await api.get<{ data: { rule: Rule; versions: Rule[] } }>(`/v2/rules/${ruleId}`))),
    `${ruleId}#${generation}`,
  );
  const [draft, setDraft] = useDraft(stored.data?.rule, ruleId);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saved, setSaved] = useState('');

  async function save(event: Event) {
    event.preventDefault();
    setSaveError(null);
    setSaved('');
    try {
      const body = { ...draft, description: draft.description || undefined };
      const rule = ruleId === 'new' ? await api.send<Rule>('POST', '/v2/rules', body) : await api.send<Rule>('PUT', `/v2/rules/${ruleId}`, body);
      setSaved(`Saved version ${rule.ruleVersion} of rule ${rule.ruleId}.`);
      if (ruleId === 'new') navigate({ page: 'rule', ruleId: rule.ruleId });
      else setGeneration((value) => value + 1);
    } catch (failure) {
      setSaveError(failure);
    }
  }

  async function disable() {
    if (ruleId === 'new') return;
    setSaveError(null);
    try {
      const rule = await api.send<Rule>('DELETE', `/v2/rules/${ruleId}`);
      setSaved(`Rule ${rule.ruleId} disabled (version ${rule.ruleVersion}).`);
      setGeneration((value) => value + 1);
    } catch (failure) {
      setSaveError(failure);
    }
  }

  const current = stored.data?.rule;
  return (
    <main id="main" tabIndex={-1}>
      <h1>{ruleId === 'new' ? 'New rule' : `Rule ${ruleId}${current ? `: ${current.name}` : ''}`}</h1>
      <ErrorNotice error={stored.error} />
      {current ? <RuleStatus rule={current} /> : null}
      <form class="rule-form" onSubmit={(event) => void save(event)}>
        <RuleFields api={api} draft={draft} onChange={setDraft} />
        <div class="buttons">
          <button type="submit">{ruleId === 'new' ? 'Create rule' : 'Save new version'}</button>
          {ruleId !== 'new' && current?.state !== 'disabled' ? (
            <button type="button" class="secondary" onClick={() => void disable()}>
              Disable
            </button>
          ) : null}
        </div>
        <p role="status" class="saved">
          {saved}
        </p>
        <ErrorNotice error={saveError} />
      </form>
      {stored.data && stored.data.versions.length > 1 ? <Versions versions={stored.data.versions} /> : null}
      <BacktestForm api={api} draft={draft} />
    </main>
  );
}

function RuleStatus({ rule }: { rule: Rule }) {
  return (
    <>
      {rule.suspension ? (
        <p class="notice error" role="alert">
          Suspended since {formatTime(rule.suspension.suspendedAt)}: {rule.suspension.reason}. It is not evaluated until it is edited: saving a new version lifts the suspension.
        </p>
      ) : null}
      <p class="muted">
        Version {rule.ruleVersion}, {rule.state}, saved {formatTime(rule.createdAt)}
      </p>
    </>
  );
}

/** The rule's fields, with the server's type-check of the expression under it. */
function RuleFields({ api, draft, onChange }: { api: Api; draft: RuleDraft; onChange: (draft: RuleDraft) => void }) {
  return (
    <>
      <label for="rule-name">Name</label>
      <input id="rule-name" required maxLength={200} value={draft.name} onInput={(event) => onChange({ ...draft, name: event.currentTarget.value })} />
      <label for="rule-description">Description</label>
      <input id="rule-description" maxLength={1000} value={draft.description} onInput={(event) => onChange({ ...draft, description: event.currentTarget.value })} />
      <label for="rule-checkpoint">Checkpoint</label>
      <CheckpointSelect id="rule-checkpoint" value={draft.checkpoint} onChange={(checkpoint) => onChange({ ...draft, checkpoint })} />
      <label for="rule-expression">Expression (CEL)</label>
      <textarea
        id="rule-expression"
        class="mono"
        rows={4}
        maxLength={4096}
        required
        spellcheck={false}
        aria-describedby="rule-check"
        value={draft.expression}
        onInput={(event) => onChange({ ...draft, expression: event.currentTarget.value })}
      />
      <TypeCheck api={api} checkpoint={draft.checkpoint} expression={draft.expression} />
      <label for="rule-action">Action</label>
      <select id="rule-action" value={draft.action} onChange={(event) => onChange({ ...draft, action: event.currentTarget.value as Action })}>
        {ACTIONS.map((action) => (
          <option key={action} value={action}>
            {action}
          </option>
        ))}
      </select>
      <label for="rule-state">State</label>
      <select id="rule-state" value={draft.state} onChange={(event) => onChange({ ...draft, state: event.currentTarget.value as RuleState })}>
        {EDITABLE_STATES.map((state) => (
          <option key={state} value={state}>
            {state}
          </option>
        ))}
      </select>
    </>
  );
}

/** The server's type-check of the expression as it is typed (debounced). */
function TypeCheck({ api, checkpoint, expression }: { api: Api; checkpoint: string; expression: string }) {
  const settled = useDebounced(`${checkpoint}\n${expression}`, VALIDATE_DELAY_MS);
  const check = useLoad(async () => {
    const [settledCheckpoint, ...rest] = settled.split('\n');
    const settledExpression = rest.join('\n');
    if (!settledExpression.trim()) return null;
    return api.send<Validation>('POST', '/v2/rules/validate', { checkpoint: settledCheckpoint, expression: settledExpression });
  }, settled);
  const pending = settled !== `${checkpoint}\n${expression}` || check.loading;
  let text = '';
  let tone = 'muted';
  if (check.error) {
    text = check.error instanceof Error ? check.error.message : String(check.error);
    tone = 'error';
  } else if (pending && expression.trim()) {
    text = 'Checking…';
  } else if (check.data?.valid) {
    text = 'Type-checks: a boolean over this checkpoint’s context.';
    tone = 'ok';
  } else if (check.data) {
    text = check.data.errors.map((error) => (error.position === undefined || error.position === null ? error.message : `${error.message} (at position ${error.position})`)).join('; ');
    tone = 'error';
  }
  return (
    <p id="rule-check" class={`type-check ${tone}`} aria-live="polite" data-state={tone}>
      {text}
    </p>
  );
}

const VERSION_FIELDS: Array<keyof Rule> = ['name', 'description', 'checkpoint', 'expression', 'action', 'state', 'createdAt', 'createdBy'];

/** Two versions of the rule side by side, the fields that differ marked. */
function Versions({ versions }: { versions: Rule[] }) {
  const [left, setLeft] = useState(versions.length - 2);
  const [right, setRight] = useState(versions.length - 1);
  const picker = (id: string, label: string, value: number, set: (index: number) => void) => (
    <label>
      {label}{' '}
      <select id={id} value={value} onChange={(event) => set(Number(event.currentTarget.value))}>
        {versions.map((version, index) => (
          <option key={version.ruleVersion} value={index}>
            version {version.ruleVersion}
          </option>
        ))}
      </select>
    </label>
  );
  const a = versions[left];
  const b = versions[right];
  return (
    <Section title={`Versions (${versions.length})`} id="versions">
      <div class="toolbar">
        {picker('version-left', 'Compare', left, setLeft)}
        {picker('version-right', 'with', right, setRight)}
      </div>
      <table class="versions">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Version {a?.ruleVersion}</th>
            <th scope="col">Version {b?.ruleVersion}</th>
          </tr>
        </thead>
        <tbody>
          {VERSION_FIELDS.map((field) => {
            const differs = String(a?.[field] ?? '') !== String(b?.[field] ?? '');
            return (
              <tr key={field} class={differs ? 'differs' : ''}>
                <th scope="row">
                  {field}
                  {differs ? <span class="visually-hidden"> (changed)</span> : null}
                </th>
                <td class="mono">{String(a?.[field] ?? '')}</td>
                <td class="mono">{String(b?.[field] ?? '')}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Section>
  );
}

const DAY = 24 * 60 * 60 * 1000;

/** What the rule as drafted would have changed over past decisions of its checkpoint. */
function BacktestForm({ api, draft }: { api: Api; draft: RuleDraft }) {
  const [from, setFrom] = useState(() => toLocalInput(Date.now() - 30 * DAY));
  const [to, setTo] = useState(() => toLocalInput(Date.now() + 60_000));
  const [result, setResult] = useState<Backtest | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function run(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await api.send<{ data: Backtest }>('POST', '/v2/rules/backtest', {
        checkpoint: draft.checkpoint,
        from: fromLocalInput(from),
        to: fromLocalInput(to),
        rules: [{ name: draft.name || 'draft', expression: draft.expression, action: draft.action }],
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
          <input type="datetime-local" required value={from} onInput={(event) => setFrom(event.currentTarget.value)} />
        </label>
        <label>
          To
          <input type="datetime-local" required value={to} onInput={(event) => setTo(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy || !draft.expression.trim()}>
          {busy ? 'Running…' : 'Backtest this draft'}
        </button>
      </form>
      <ErrorNotice error={error} />
      {result ? <BacktestResult result={result} /> : null}
    </Section>
  );
}

function BacktestResult({ result }: { result: Backtest }) {
  return (
    <div class="backtest-result" aria-live="polite">
      <p>
        <strong>{result.evaluated}</strong> decisions evaluated; the rule triggered on {result.rules.map((rule) => rule.triggered).reduce((a, b) => a + b, 0)}.
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
    </div>
  );
}
