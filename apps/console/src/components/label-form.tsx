import { useState } from 'preact/hooks';
import { type Api, segment } from '../api';
import { labelChoiceFor } from '../format';
import type { SubjectType } from '../types';
import { ErrorNotice } from './common';

interface LabelFormProps {
  api: Api;
  reviewer: string;
  subjectType: SubjectType;
  subjectId: string;
  /** The decision's checkpoint: a refund is judged on refund abuse. */
  checkpoint?: string;
  /** Makes the ids of the controls unique on a page with several forms. */
  idPrefix: string;
  onLabelled: () => void;
}

/** One action: the review (fraud or not) with a comment, POSTed to the subject's labels. */
export function LabelForm({ api, reviewer, subjectType, subjectId, checkpoint, idPrefix, onLabelled }: LabelFormProps) {
  const choice = labelChoiceFor(subjectType, checkpoint);
  const [review, setReview] = useState<string>(choice.reviews[0]);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.send('POST', `/v2/${subjectType}/${segment(subjectId)}/labels`, {
        category: choice.category,
        review,
        comment: comment.trim() || undefined,
        reviewer: reviewer ? { name: reviewer } : undefined,
      });
      setComment('');
      onLabelled();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="label-form" onSubmit={(event) => void submit(event)} aria-label={`Label ${subjectType} ${subjectId}`}>
      <fieldset>
        <legend>Label ({choice.category})</legend>
        {choice.reviews.map((option) => (
          <label key={option} class="radio">
            <input type="radio" name={`${idPrefix}-review`} value={option} checked={review === option} onChange={() => setReview(option)} /> {option}
          </label>
        ))}
      </fieldset>
      <label for={`${idPrefix}-comment`}>Comment</label>
      <textarea id={`${idPrefix}-comment`} rows={2} maxLength={2000} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : `Label ${review}`}
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}
