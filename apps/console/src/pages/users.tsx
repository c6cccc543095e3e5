import { useState } from 'preact/hooks';
import { type Api, dataOf, segment } from '../api';
import { ErrorNotice, Section, useLoad } from '../components/common';
import { ConfirmStep } from '../components/confirm-step';
import { formatTime } from '../format';
import { ROLES, ROLE_LABELS, type Role, type Session, mayAct } from '../session';

interface User {
  userId: string;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  createdAt: number;
  createdBy: string;
}

/**
 * Issue 37: the account's people (`GET /v2/users`), and for an admin or the secret key: make
 * one, change a role, disable or enable (`POST /v2/users`, `PATCH /v2/users/:userId`). A new
 * role or disabling ends the person's sessions at once (the server does it).
 */
export function Users({ api, session }: { api: Api; session: Session }) {
  const users = useLoad(async () => dataOf(await api.get<{ data: { users: User[] } }>('/v2/users')).users, 'users');
  const admin = mayAct(session, 'admin');
  return (
    <main id="main" tabIndex={-1}>
      <h1>Users</h1>
      <ErrorNotice error={users.error} />
      <Section title="People of this account" id="users">
        {users.data && users.data.length === 0 ? <p class="empty">No one yet: make the first admin below.</p> : null}
        {users.data && users.data.length > 0 ? <UserTable api={api} users={users.data} session={session} admin={admin} onChanged={users.reload} /> : null}
      </Section>
      {admin ? <NewUserForm api={api} onCreated={users.reload} /> : <p class="muted">Only an admin may add people or change them.</p>}
    </main>
  );
}

function UserTable({ api, users, session, admin, onChanged }: { api: Api; users: User[]; session: Session; admin: boolean; onChanged: () => void }) {
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');

  const change: Change = async (user, body, done) => {
    setError(null);
    setStatus('');
    try {
      await api.send('PATCH', `/v2/users/${segment(user.userId)}`, body);
      setStatus(done);
      onChanged();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <>
      <table class="users-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail address</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            <th scope="col">Added</th>
            {admin ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <UserRow key={user.userId} user={user} self={session.person?.userId === user.userId} admin={admin} change={change} />
          ))}
        </tbody>
      </table>
      <p role="status">{status}</p>
      <ErrorNotice error={error} />
    </>
  );
}

type Change = (user: User, body: { role?: Role; disabled?: boolean }, done: string) => Promise<void>;

interface Pending {
  body: { role?: Role; disabled?: boolean };
  message: string;
  confirmText: string;
  done: string;
}

/**
 * One person; an admin may change their role or disable them (never their own: the server
 * refuses it). Both end the person's sessions, so each is asked first (ConfirmStep); enabling is not.
 */
function UserRow({ user, self, admin, change }: { user: User; self: boolean; admin: boolean; change: Change }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = () => {
    if (user.disabled) void change(user, { disabled: false }, `${user.email} may sign in again.`);
    else setPending({ body: { disabled: true }, message: `Disable ${user.email}? They are signed out at once and can no longer sign in.`, confirmText: 'Yes, disable', done: `${user.email} is disabled.` });
  };
  const changeRole = (role: Role) =>
    setPending(role === user.role ? null : { body: { role }, message: `Make ${user.email} ${ROLE_LABELS[role]}? Their open sessions end; they sign in again.`, confirmText: `Yes, make ${ROLE_LABELS[role]}`, done: `${user.email} is now ${ROLE_LABELS[role]}.` });
  const confirm = async (asked: Pending) => {
    setBusy(true);
    await change(user, asked.body, asked.done);
    setBusy(false);
    setPending(null);
  };
  return (
    <tr class={user.disabled ? 'disabled' : undefined} data-user-id={user.userId}>
      <td>{user.name}</td>
      <td class="mono">{user.email}</td>
      <td>
        {admin && !self ? (
          <select aria-label={`Role of ${user.email}`} value={pending?.body.role ?? user.role} onChange={(event) => changeRole(event.currentTarget.value as Role)}>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        ) : (
          ROLE_LABELS[user.role]
        )}
      </td>
      <td>{user.disabled ? 'disabled' : 'active'}</td>
      <td title={`by ${user.createdBy}`}>{formatTime(user.createdAt)}</td>
      {admin ? (
        <td>
          {self ? (
            <span class="muted">you</span>
          ) : pending ? (
            <ConfirmStep label={`Confirm the change of ${user.email}`} message={pending.message} confirmText={pending.confirmText} busy={busy} onConfirm={() => void confirm(pending)} onCancel={() => setPending(null)} />
          ) : (
            <button type="button" class="secondary" onClick={toggle}>
              {user.disabled ? 'Enable' : 'Disable'}
            </button>
          )}
        </td>
      ) : null}
    </tr>
  );
}

function NewUserForm({ api, onCreated }: { api: Api; onCreated: () => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('analyst');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');

  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    setStatus('');
    try {
      const created = dataOf(await api.send<{ data: User }>('POST', '/v2/users', { email: email.trim(), name: name.trim(), role, password }));
      setStatus(`${created.email} may now sign in as ${ROLE_LABELS[created.role]}. Give them their password by a safe channel.`);
      setEmail('');
      setName('');
      setPassword('');
      onCreated();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <Section title="Add a person" id="new-user">
      <form class="user-form" onSubmit={(event) => void submit(event)}>
        <label for="new-user-email">E-mail address</label>
        <input id="new-user-email" type="email" autoComplete="off" required value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
        <label for="new-user-name">Name</label>
        <input id="new-user-name" type="text" autoComplete="off" required maxLength={200} value={name} onInput={(event) => setName(event.currentTarget.value)} />
        <label for="new-user-role">Role</label>
        <select id="new-user-role" value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
          {ROLES.map((choice) => (
            <option key={choice} value={choice}>
              {ROLE_LABELS[choice]}
            </option>
          ))}
        </select>
        <p class="muted">Viewer: reads. Analyst: labels, cases, payment reviews. Rule author: also rules, backtests, models. Admin: also people and settings.</p>
        <label for="new-user-password">Password (12 to 256 characters)</label>
        <input id="new-user-password" type="password" autoComplete="new-password" required minLength={12} maxLength={256} value={password} onInput={(event) => setPassword(event.currentTarget.value)} />
        <button type="submit">Add</button>
        <p role="status">{status}</p>
        <ErrorNotice error={error} />
      </form>
    </Section>
  );
}
