import { formatValue } from '../format';
import type { Contribution, Decision } from '../types';
import { ActionBadge } from './common';
import { scoreSum } from './score-sum';

function Contributions({ title, items, sign }: { title: string; items: Contribution[]; sign: '+' | '−' }) {
  if (items.length === 0) return null;
  return (
    <div class="contributions">
      <h4>{title}</h4>
      <ul>
        {items.map((item) => (
          <li key={item.feature}>
            <code>{item.feature}</code> = {formatValue(item.value)}
            {item.condition ? <span class="muted"> ({item.condition})</span> : null}{' '}
            <span class={sign === '+' ? 'raise' : 'lower'}>
              {sign}
              {Math.abs(item.contribution).toFixed(Number.isInteger(item.contribution) ? 0 : 3)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Why a checkpoint answered as it did: the deciding reason, the model's features, the rules. */
export function Reasons({ decision }: { decision: Decision }) {
  const explanation = decision.explanation;
  const triggered = decision.rules?.triggered ?? [];
  // The rules block names a rule only at payouts; the explanation names every triggered rule.
  const names = new Map((explanation?.rules ?? []).map((rule) => [rule.ruleId, rule.name]));
  return (
    <div class="reasons">
      {explanation ? <p class="reason">{explanation.reason}</p> : null}
      {explanation ? (
        <p class="score-sum">
          Model score in points: <span class="mono">{scoreSum(explanation)}</span>
        </p>
      ) : null}
      {explanation ? (
        <div class="contribution-columns">
          <Contributions title="Raised the score" items={explanation.raised} sign="+" />
          <Contributions title="Lowered the score" items={explanation.lowered} sign="−" />
        </div>
      ) : null}
      {triggered.length > 0 ? (
        <div>
          <h4>Rules triggered</h4>
          <ul>
            {triggered.map((rule) => (
              <li key={`${rule.ruleId}-${rule.ruleVersion}`}>
                <a href={`#/rules/${rule.ruleId}`}>{rule.ruleName || names.get(rule.ruleId) || rule.description || `rule ${rule.ruleId}`}</a> v{rule.ruleVersion} <ActionBadge action={rule.action} />{' '}
                <span class="muted">{rule.state}</span>
              </li>
            ))}
          </ul>
          {decision.rules.passiveAction ? <p class="muted">With the passive rules active: {decision.rules.passiveAction}</p> : null}
        </div>
      ) : null}
      {!explanation && triggered.length === 0 ? <p class="muted">No explanation was recorded.</p> : null}
    </div>
  );
}
