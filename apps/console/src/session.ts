// The key lives in sessionStorage only: it is gone when the tab closes, never written to disk by
// the console, never put in a URL, and signing out forgets it at once.
const KEY = 'ringfence.console.key';
const REVIEWER = 'ringfence.console.reviewer';

export interface Session {
  key: string;
  /** Recorded as the `reviewer.name` of the labels this analyst applies; optional. */
  reviewer: string;
}

export function readSession(): Session | null {
  const key = sessionStorage.getItem(KEY);
  return key ? { key, reviewer: sessionStorage.getItem(REVIEWER) ?? '' } : null;
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(KEY, session.key);
  if (session.reviewer) sessionStorage.setItem(REVIEWER, session.reviewer);
  else sessionStorage.removeItem(REVIEWER);
}

export function forgetSession(): void {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(REVIEWER);
}
