import { useState } from 'preact/hooks';
import { createApi } from '../api';
import { ErrorNotice } from '../components/common';
import type { Session } from '../session';

/** A secret key, checked with `GET /v2/auth/checktoken` before anything else is shown. */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [key, setKey] = useState('');
  const [reviewer, setReviewer] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: Event) {
    event.preventDefault();
    const trimmed = key.trim();
    if (!/^(sk|secret_key)_(test|live)_/.test(trimmed)) {
      setError(new Error('the console needs a secret key (sk_test_… or sk_live_…); publishable keys are for the client SDKs'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await createApi(trimmed, () => undefined).get('/v2/auth/checktoken');
      onSignedIn({ key: trimmed, reviewer: reviewer.trim() });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main class="sign-in" id="main" tabIndex={-1}>
      <h1>Ringfence console</h1>
      <form onSubmit={(event) => void submit(event)}>
        <label for="key">Secret key</label>
        <input id="key" name="key" type="password" autoComplete="off" spellcheck={false} required value={key} onInput={(event) => setKey(event.currentTarget.value)} />
        <label for="reviewer">Your name (recorded with your labels; optional)</label>
        <input id="reviewer" name="reviewer" type="text" autoComplete="name" value={reviewer} onInput={(event) => setReviewer(event.currentTarget.value)} />
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <ErrorNotice error={error} />
      </form>
      <p class="muted">The key stays in this tab's session storage until you sign out or close the tab.</p>
    </main>
  );
}
