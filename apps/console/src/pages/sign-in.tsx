import { useState } from 'preact/hooks';
import { ApiError, createApi } from '../api';
import { ErrorNotice } from '../components/common';
import type { Role, Session } from '../session';

interface SignedInAnswer {
  data: { token: string; expiresAt: number; environment: 'test' | 'live'; user: { userId: string; email: string; name: string; role: Role } };
}

/** `POST /v2/sessions`: a public route, so no credential is sent. */
async function signInAsPerson(email: string, password: string, environment: 'test' | 'live'): Promise<Session> {
  let response: Response;
  try {
    response = await fetch('/v2/sessions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ email, password, environment }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'the server could not be reached');
  }
  const answer = (await response.json().catch(() => ({}))) as Partial<SignedInAnswer> & { message?: string; traceId?: string };
  if (!response.ok || !answer.data) {
    const retryAfter = response.headers.get('Retry-After');
    const wait = response.status === 429 && retryAfter ? ` (try again in ${retryAfter} s)` : '';
    throw new ApiError(response.status, `${answer.message ?? `HTTP ${response.status}`}${wait}`, answer.traceId);
  }
  const { token, expiresAt, user } = answer.data;
  return { key: token, reviewer: user.name, person: { ...user, environment: answer.data.environment, expiresAt } };
}

/**
 * Issue 37: people sign in as themselves (e-mail address and password, made by the account's
 * admin); the account's owner may still open the console with a secret key, checked with
 * `GET /v2/auth/checktoken` before anything else is shown.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  return (
    <main class="sign-in" id="main" tabIndex={-1}>
      <h1>Ringfence console</h1>
      <PersonSignIn onSignedIn={onSignedIn} />
      <KeySignIn onSignedIn={onSignedIn} />
      <p class="muted">What you sign in with stays in this tab's session storage until you sign out or close the tab.</p>
    </main>
  );
}

function PersonSignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [environment, setEnvironment] = useState<'test' | 'live'>('test');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signInAsPerson(email.trim(), password, environment));
    } catch (failure) {
      setError(failure);
      setPassword('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="person-sign-in" aria-labelledby="person-sign-in-title" onSubmit={(event) => void submit(event)}>
      <h2 id="person-sign-in-title">Sign in</h2>
      <label for="email">E-mail address</label>
      <input id="email" name="email" type="email" autoComplete="username" spellcheck={false} required value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
      <label for="password">Password</label>
      <input id="password" name="password" type="password" autoComplete="current-password" required value={password} onInput={(event) => setPassword(event.currentTarget.value)} />
      <label for="environment">Data</label>
      <select id="environment" name="environment" value={environment} onChange={(event) => setEnvironment(event.currentTarget.value === 'live' ? 'live' : 'test')}>
        <option value="test">test data</option>
        <option value="live">live data</option>
      </select>
      <button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}

function KeySignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
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
    <form class="key-sign-in" aria-labelledby="key-sign-in-title" onSubmit={(event) => void submit(event)}>
      <h2 id="key-sign-in-title">Or sign in with a secret key</h2>
      <p class="muted">For the account's owner: a secret key may do everything, and labels name the key, not a person.</p>
      <label for="key">Secret key</label>
      <input id="key" name="key" type="password" autoComplete="off" spellcheck={false} required value={key} onInput={(event) => setKey(event.currentTarget.value)} />
      <label for="reviewer">Your name (recorded with your labels; optional)</label>
      <input id="reviewer" name="reviewer" type="text" autoComplete="name" value={reviewer} onInput={(event) => setReviewer(event.currentTarget.value)} />
      <button type="submit" class="secondary" disabled={busy}>
        {busy ? 'Checking…' : 'Sign in with the key'}
      </button>
      <ErrorNotice error={error} />
    </form>
  );
}
