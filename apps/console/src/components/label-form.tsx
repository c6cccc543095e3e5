import { useState } from 'preact/hooks';
import { type Api, segment } from '../api';
import { labelChoiceFor, labelConsequence } from '../format';
import type { LabelChange, SubjectType } from '../types';
import { ErrorNotice } from './common';
import { ConfirmStep } from './confirm-step';
import { useMayReview, usePotentialLabels } from './current';

interface LabelFormProps {
  api: Api;
  reviewer: string;
  subjectType: SubjectType;
  subjectId: string;
  /** The decision's checkpoint: a refund is judged on refund abuse. */
  checkpoint?: string;
  /** Makes the ids of the controls unique on a page with several forms. */
  idPrefix: string;
  /**
   * The category's last label change, when it has one: offers "Undo" (POST …/labels/undo), which
   * restores its `previous` review, named on the button.
   */
  lastChange?: LabelChange;
  onLabelled: () => void;
}

/** Runs one request at a time; `after` follows a success, whose message is then shown. */
function useRun(after: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  async function run(action: () => Promise<unknown>, said: string) {
    setBusy(true);
    setError(null);
    setDone('');
    try {
      await action();
      setDone(said);
      after();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, done, run };
}

/**
 * One action: the review (fraud or not) with a comment, POSTed to the subject's labels. Nothing
 * is preselected: the analyst picks. A review that decides every later checkpoint (GENUINE,
 * FRAUDSTER, FRAUDULENT) says so and asks for a confirmation before it is sent.
 */
export function LabelForm({ api, reviewer, subjectType, subjectId, checkpoint, idPrefix, lastChange, onLabelled }: LabelFormProps) {
  const choice = labelChoiceFor(subjectType, checkpoint, usePotentialLabels(api));
  const [review, setReview] = useState<string | null>(null);
  const [comment, setComment] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [confirmingUndo, setConfirmingUndo] = useState(false);
  const { busy, error, done, run } = useRun(() => {
    setComment('');
    setReview(null);
    setConfirming(false);
    setConfirmingUndo(false);
    onLabelled();
  });
  const consequence = review ? labelConsequence(review, subjectType) : null;
  // Undo applies the review before the last change: a decisive one is confirmed like a new label.
  const restores = lastChange?.previous ?? null;
  const undoConsequence = restores ? labelConsequence(restores, subjectType) : null;
  if (!useMayReview()) return null;

  const body = () => ({ category: choice.category, review, comment: comment.trim() || undefined, reviewer: reviewer ? { name: reviewer } : undefined });
  const apply = () => run(() => api.send('POST', `/v2/${subjectType}/${segment(subjectId)}/labels`, body()), `Labelled ${review}.`);
  const undo = () => run(() => api.send('POST', `/v2/${subjectType}/${segment(subjectId)}/labels/undo`, { category: choice.category }), `The last ${choice.category} label was undone.`);
  const requestUndo = () => (undoConsequence ? setConfirmingUndo(true) : void undo());

  function submit(event: Event) {
    event.preventDefault();
    if (!review) return;
    if (consequence && !confirming) setConfirming(true);
    else void apply();
  }

  return (
    <form class="label-form" onSubmit={submit} aria-label={`Label ${subjectType} ${subjectId}`} data-category={choice.category}>
      <ReviewChoices
        legend={`Label (${choice.category})`}
        name={`${idPrefix}-review`}
        options={choice.options}
        value={review}
        onChange={(option) => {
          setReview(option);
          setConfirming(false);
        }}
      />
      <label for={`${idPrefix}-comment`}>Comment</label>
      <textarea id={`${idPrefix}-comment`} rows={2} maxLength={2000} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
      {confirming && consequence ? (
        <ConfirmStep label={`Confirm ${review}`} message={consequence} confirmText={`Yes, label ${review}`} busy={busy} onConfirm={() => void apply()} onCancel={() => setConfirming(false)} />
      ) : confirmingUndo && undoConsequence ? (
        <ConfirmStep label={`Confirm undo to ${restores}`} message={`Undo restores ${restores}. ${undoConsequence}`} confirmText={`Yes, restore ${restores}`} busy={busy} onConfirm={() => void undo()} onCancel={() => setConfirmingUndo(false)} />
      ) : (
        <LabelButtons review={review} busy={busy} undo={lastChange ? { category: choice.category, restores } : null} onUndo={requestUndo} />
      )}
      <p class="muted label-done" role="status">
        {done}
      </p>
      <ErrorNotice error={error} />
    </form>
  );
}

function ReviewChoices({ legend, name, options, value, onChange }: { legend: string; name: string; options: string[]; value: string | null; onChange: (option: string) => void }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} class="radio">
          <input type="radio" name={name} value={option} checked={value === option} onChange={() => onChange(option)} /> {option}
        </label>
      ))}
    </fieldset>
  );
}

function LabelButtons({ review, busy, undo, onUndo }: { review: string | null; busy: boolean; undo: { category: string; restores: string | null } | null; onUndo: () => void }) {
  return (
    <div class="buttons">
      <button type="submit" disabled={busy || !review}>
        {busy ? 'Saving…' : review ? `Label ${review}` : 'Choose a label'}
      </button>
      {undo ? (
        <button type="button" class="secondary undo-label" disabled={busy} onClick={onUndo}>
          Undo the last {undo.category} label (back to {undo.restores ?? 'no label'})
        </button>
      ) : null}
    </div>
  );
}
