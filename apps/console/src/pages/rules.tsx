import { useState } from 'preact/hooks';
import { type Api, dataOf } from '../api';
import { ActionBadge, CheckpointSelect, ErrorNotice, useLoad } from '../components/common';
import { formatTime } from '../format';
import { href } from '../router';
import type { Rule } from '../types';
import { useMayAct } from '../session-context';

/** The account's rules (current versions), by checkpoint, with how often each triggered and who saved it. */
export function Rules({ api }: { api: Api }) {
  const [checkpoint, setCheckpoint] = useState('');
  const mayAuthor = useMayAct('rule_author');
  const rules = useLoad(async () => dataOf(await api.get<{ data: { rules: Rule[] } }>('/v2/rules', { checkpoint })).rules, checkpoint);
  return (
    <main id="main" tabIndex={-1}>
      <h1>Rules</h1>
      <div class="toolbar">
        <label>
          Checkpoint{' '}
          <CheckpointSelect value={checkpoint} onChange={setCheckpoint} anyLabel="every checkpoint" />
        </label>
        {mayAuthor ? (
          <a class="button" href={href({ page: 'rule', ruleId: 'new' })}>
            New rule
          </a>
        ) : null}
      </div>
      <ErrorNotice error={rules.error} />
      {rules.data ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Name</th>
              <th scope="col">Checkpoint</th>
              <th scope="col">Action</th>
              <th scope="col">State</th>
              <th scope="col">Version</th>
              <th scope="col">Hits 24 h</th>
              <th scope="col">Hits 30 d</th>
              <th scope="col">Hits in all</th>
              <th scope="col">Last hit</th>
              <th scope="col">Saved</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {rules.data.map((rule) => (
              <RuleRow key={rule.ruleId} rule={rule} />
            ))}
          </tbody>
        </table>
      ) : null}
      {rules.data && rules.data.length === 0 ? <p class="empty">No rule yet.</p> : null}
    </main>
  );
}

/** One rule: its current version, how often it triggered and when last, and who saved it. */
function RuleRow({ rule }: { rule: Rule }) {
  return (
    <tr class={rule.state === 'disabled' || rule.state === 'suspended' ? rule.state : ''}>
      <td>{rule.ruleId}</td>
      <td>
        <a href={href({ page: 'rule', ruleId: rule.ruleId })}>{rule.name}</a>
      </td>
      <td>{rule.checkpoint}</td>
      <td>
        <ActionBadge action={rule.action} />
      </td>
      <td title={rule.suspension?.reason}>{rule.state}</td>
      <td>{rule.ruleVersion}</td>
      <td>{rule.hits?.last24h ?? 0}</td>
      <td>{rule.hits?.last30d ?? 0}</td>
      <td>{rule.hits?.total ?? 0}</td>
      <td>{rule.lastHitAt ? formatTime(rule.lastHitAt) : 'never'}</td>
      <td>{formatTime(rule.createdAt)}</td>
      <td>{rule.author ?? rule.createdBy ?? ''}</td>
    </tr>
  );
}
