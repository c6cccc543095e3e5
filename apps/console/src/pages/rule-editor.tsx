import { useEffect, useState } from 'preact/hooks';
import { type Api, dataOf } from '../api';
import { CheckpointSelect, ErrorNotice, Section, useDebounced, useLoad } from '../components/common';
import { ConfirmStep } from '../components/confirm-step';
import { BacktestForm } from '../components/rule-backtest';
import { formatTime } from '../format';
import { navigate } from '../router';
import type { Action, Rule, RuleDraft, RuleState, Validation } from '../types';
import { useMayAct } from '../session-context';

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

/**
 * Saving and disabling a rule, with the second step an active version takes: saved as active, a
 * version decides from the next checkpoint on, so it is confirmed first.
 */
function useRuleSave(api: Api, ruleId: number | 'new', draft: RuleDraft, onSaved: () => void) {
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function save() {
    setConfirming(false);
    setError(null);
    setSaved('');
    setBusy(true);
    try {
      const body = { ...draft, description: draft.description || undefined };
      const rule = ruleId === 'new' ? await api.send<Rule>('POST', '/v2/rules', body) : await api.send<Rule>('PUT', `/v2/rules/${ruleId}`, body);
      setSaved(`Saved version ${rule.ruleVersion} of rule ${rule.ruleId}.`);
      if (ruleId === 'new') navigate({ page: 'rule', ruleId: rule.ruleId });
      else onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  async function disable() {
    if (ruleId === 'new') return;
    setError(null);
    try {
      const rule = await api.send<Rule>('DELETE', `/v2/rules/${ruleId}`);
      setSaved(`Rule ${rule.ruleId} disabled (version ${rule.ruleVersion}).`);
      onSaved();
    } catch (failure) {
      setError(failure);
    }
  }

  function request(event: Event) {
    event.preventDefault();
    if (draft.state === 'active') setConfirming(true);
    else void save();
  }

  return { error, saved, confirming, setConfirming, busy, save, disable, request };
}

/** Create or edit one rule: its fields with the live type-check, its versions, a backtest. */
export function RuleEditor({ api, ruleId }: { api: Api; ruleId: number | 'new' }) {
  const [generation, setGeneration] = useState(0);
  const mayAuthor = useMayAct('rule_author');
  const stored = useLoad(
    async () => (ruleId === 'new' ? null : dataOf(await api.get<{ data: { rule: Rule; versions: Rule[] } }>(`/v2/rules/${ruleId}`))),
    `${ruleId}#${generation}`,
  );
  const [draft, setDraft] = useDraft(stored.data?.rule, ruleId);
  const saving = useRuleSave(api, ruleId, draft, () => setGeneration((value) => value + 1));
  const current = stored.data?.rule;
  return (
    <main id="main" tabIndex={-1}>
      <h1>{ruleId === 'new' ? 'New rule' : `Rule ${ruleId}${current ? `: ${current.name}` : ''}`}</h1>
      <ErrorNotice error={stored.error} />
      {current ? <RuleStatus rule={current} /> : null}
      <form class="rule-form" onSubmit={saving.request}>
        <RuleFields
          api={api}
          draft={draft}
          onChange={(changed) => {
            setDraft(changed);
            saving.setConfirming(false);
          }}
        />
        {saving.confirming ? (
          <ConfirmStep
            label="Confirm an active rule"
            message={`Saved as active, this rule decides ${draft.action} at every ${draft.checkpoint} checkpoint it matches, from the very next request. Backtest it first if you have not.`}
            confirmText={ruleId === 'new' ? 'Yes, create it active' : 'Yes, save it active'}
            busy={saving.busy}
            onConfirm={() => void saving.save()}
            onCancel={() => saving.setConfirming(false)}
          />
        ) : null}
        <div class="buttons" hidden={!mayAuthor}>
          <button type="submit" disabled={saving.busy || saving.confirming}>
            {ruleId === 'new' ? 'Create rule' : 'Save new version'}
          </button>
          {ruleId !== 'new' && current?.state !== 'disabled' ? (
            <button type="button" class="secondary" onClick={() => void saving.disable()}>
              Disable
            </button>
          ) : null}
        </div>
        <p role="status" class="saved">
          {saving.saved}
        </p>
        <ErrorNotice error={saving.error} />
      </form>
      {stored.data && stored.data.versions.length > 1 ? <Versions versions={stored.data.versions} /> : null}
      {mayAuthor ? <BacktestForm api={api} draft={draft} ruleId={ruleId} /> : <p class="muted">Only a rule author may change or backtest rules.</p>}
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
        {rule.author ? ` by ${rule.author}` : ''}. Triggered {rule.hits?.last24h ?? 0} times in the last 24 h, {rule.hits?.last30d ?? 0} in 30 days, {rule.hits?.total ?? 0} in all; last{' '}
        {rule.lastHitAt ? formatTime(rule.lastHitAt) : 'never'}.
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

const VERSION_FIELDS: Array<keyof Rule> = ['name', 'description', 'checkpoint', 'expression', 'action', 'state', 'createdAt', 'author'];

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
