import { useEffect, useState } from 'preact/hooks';
import { type Api, dataOf } from '../api';
import { CheckpointSelect, ErrorNotice, Section, useLoad } from '../components/common';
import { ConfirmStep } from '../components/confirm-step';
import { formatRatio, formatTime, fromLocalInput } from '../format';
import type { Model } from '../types';
import { useMayAct } from '../session-context';

/** How often the list is re-read while a model trains, to show its progress. */
const PROGRESS_POLL_MS = 2000;

/**
 * The account's models: the ones it trained (metrics, training progress) and the default shipped
 * for each checkpoint it serves, which one is active, train, and activate after a confirmation.
 */
export function Models({ api }: { api: Api }) {
  const [checkpoint, setCheckpoint] = useState('');
  const models = useLoad(async () => dataOf(await api.get<{ data: { models: Model[] } }>('/v2/models', { checkpoint })).models, checkpoint);
  const [actionError, setActionError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState<Model | null>(null);
  const [busy, setBusy] = useState(false);
  const mayAuthor = useMayAct('rule_author');
  const training = models.data?.some((model) => model.status === 'training') ?? false;

  useEffect(() => {
    if (!training) return undefined;
    const timer = setTimeout(models.reload, PROGRESS_POLL_MS);
    return () => clearTimeout(timer);
  }, [training, models.data]);

  async function activate(model: Model) {
    setConfirming(null);
    setActionError(null);
    setBusy(true);
    try {
      await api.send('POST', `/v2/models/${encodeURIComponent(model.modelId)}/activate`);
      models.reload();
    } catch (failure) {
      setActionError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" tabIndex={-1}>
      <h1>Models</h1>
      {mayAuthor ? <TrainForm api={api} onStarted={models.reload} /> : null}
      <div class="toolbar">
        <label>
          Checkpoint{' '}
          <CheckpointSelect value={checkpoint} onChange={setCheckpoint} anyLabel="every checkpoint" />
        </label>
      </div>
      <ErrorNotice error={models.error ?? actionError} />
      {confirming ? (
        <ConfirmStep
          label={`Confirm activating ${confirming.modelId}`}
          message={activationConsequence(confirming)}
          confirmText={`Yes, activate ${confirming.shipped ? 'the shipped default' : confirming.modelId}`}
          busy={busy}
          onConfirm={() => void activate(confirming)}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
      {models.data && models.data.length === 0 ? <p class="empty">No model yet for this checkpoint: the built-in model scores it.</p> : null}
      {models.data && models.data.length > 0 ? <ModelsTable models={models.data} busy={busy} onActivate={setConfirming} /> : null}
    </main>
  );
}

/** What activating a model changes, said before it does. */
function activationConsequence(model: Model): string {
  if (model.shipped) return `The ${model.checkpoint} checkpoint goes back to the default model shipped with Ringfence (beside the built-in model), from the very next request; the trained models stay and can be activated again.`;
  return `${model.modelId} scores every ${model.checkpoint} checkpoint from the very next request, in place of the model scoring it now. Its held-out metrics are in the table.`;
}

function ModelsTable({ models, busy, onActivate }: { models: Model[]; busy: boolean; onActivate: (model: Model) => void }) {
  const mayAuthor = useMayAct('rule_author');
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col">Checkpoint</th>
          <th scope="col">Status</th>
          <th scope="col">Examples (positives)</th>
          <th scope="col">AUC</th>
          <th scope="col">Average precision</th>
          <th scope="col">Precision at PREVENT</th>
          <th scope="col">Recall at REVIEW</th>
          <th scope="col">Asked</th>
          <th scope="col">Active</th>
        </tr>
      </thead>
      <tbody>
        {models.map((model) => (
          <tr key={model.modelId}>
            <td class="mono">
              {model.modelId}
              {model.shipped ? (
                <span class="muted" title={model.version}>
                  {' '}
                  (shipped default{model.algorithm ? `, ${model.algorithm}` : ''})
                </span>
              ) : null}
            </td>
            <td>{model.checkpoint}</td>
            <td>
              <ModelStatus model={model} />
            </td>
            <td>
              {model.examples} ({model.positives})
            </td>
            <td>{model.metrics?.auc?.toFixed(3) ?? '—'}</td>
            <td>{model.metrics?.averagePrecision?.toFixed(3) ?? '—'}</td>
            <td>{formatRatio(model.metrics?.precisionAtPrevent)}</td>
            <td>{formatRatio(model.metrics?.recallAtReview)}</td>
            <td>{model.shipped ? `released ${formatTime(model.createdAt)}` : formatTime(model.createdAt)}</td>
            <td>
              {model.active ? (
                <strong>active</strong>
              ) : model.status === 'ready' && mayAuthor ? (
                <button type="button" disabled={busy} onClick={() => onActivate(model)} aria-label={`Activate ${model.modelId}`}>
                  Activate
                </button>
              ) : (
                '—'
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ModelStatus({ model }: { model: Model }) {
  if (model.status === 'failed') return <span class="error-text">failed: {model.error ?? 'no reason given'}</span>;
  if (model.status === 'ready' || !model.progress) return <span>{model.status}</span>;
  const { stage, done, total } = model.progress;
  return (
    <span>
      {stage}{' '}
      {total ? (
        <progress max={total} value={done} aria-label={`${stage}: ${done} of ${total}`}>
          {done} of {total}
        </progress>
      ) : (
        done
      )}
    </span>
  );
}

function TrainForm({ api, onStarted }: { api: Api; onStarted: () => void }) {
  const [checkpoint, setCheckpoint] = useState<string>('customer');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [started, setStarted] = useState('');

  async function train(event: Event) {
    event.preventDefault();
    setError(null);
    setStarted('');
    try {
      const answer = await api.send<{ modelId: string }>('POST', '/v2/models/train', { checkpoint, from: fromLocalInput(from), to: fromLocalInput(to) });
      setStarted(`Training ${answer.modelId}.`);
      onStarted();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Section title="Train a model" id="train">
      <form class="filters" onSubmit={(event) => void train(event)}>
        <label>
          Checkpoint
          <CheckpointSelect value={checkpoint} onChange={setCheckpoint} />
        </label>
        <label>
          From (optional)
          <input type="datetime-local" value={from} onInput={(event) => setFrom(event.currentTarget.value)} />
        </label>
        <label>
          To (optional)
          <input type="datetime-local" value={to} onInput={(event) => setTo(event.currentTarget.value)} />
        </label>
        <button type="submit">Train</button>
      </form>
      <p role="status">{started}</p>
      <ErrorNotice error={error} />
    </Section>
  );
}
