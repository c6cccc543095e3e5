import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { RULE_CHECKPOINTS } from '../format';
import type { Action } from '../types';

/** An API failure as the analyst should read it: the server's message and its traceId. */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const trace = error instanceof ApiError && error.traceId ? ` (traceId ${error.traceId})` : '';
  const status = error instanceof ApiError && error.status > 0 ? `${error.status}: ` : '';
  return (
    <p class="notice error" role="alert">
      {status}
      {message}
      {trace}
    </p>
  );
}

export function ActionBadge({ action }: { action: Action | string | null | undefined }) {
  if (!action) return <span class="badge">—</span>;
  return <span class={`badge action-${action.toLowerCase()}`}>{action}</span>;
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="panel" aria-labelledby={id ? `${id}-title` : undefined}>
      <h2 id={id ? `${id}-title` : undefined}>{title}</h2>
      {children}
    </section>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` when `key` changes (and on `reload`), keeping only the latest answer: a slow
 * earlier request never overwrites a newer one.
 */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const request = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => request === latest.current && setState({ data, loading: false }),
      (error: unknown) => request === latest.current && setState({ error, loading: false }),
    );
    // `load` is a new closure on every render; `key` names what it depends on.
  }, [key, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** `value`, once it has stopped changing for `delayMs`. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** A key-value table of scalar fields. */
export function FieldList({ fields }: { fields: Array<[string, ComponentChildren]> }) {
  return (
    <dl class="fields">
      {fields.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A rules checkpoint to choose; with `anyLabel`, also none (a filter's "every checkpoint"). The
 * id, when given, is what the page's own <label for> names.
 */
export function CheckpointSelect({ value, onChange, anyLabel, id }: { value: string; onChange: (checkpoint: string) => void; anyLabel?: string; id?: string }) {
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
      {anyLabel === undefined ? null : <option value="">{anyLabel}</option>}
      {RULE_CHECKPOINTS.map((name) => (
        <option key={name} value={name}>
          {name}
        </option>
      ))}
    </select>
  );
}
