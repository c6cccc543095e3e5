import { type Api, ApiError, dataOf } from '../api';
import { useMayAct } from '../session-context';
import type { Account } from '../types';
import { useLoad } from './common';

/** The signed-in person (`GET /v2/sessions/current`); null for a secret key or an older server. */
export interface CurrentUser {
  email: string;
  name?: string;
  role?: string;
}

const users = new WeakMap<Api, Promise<CurrentUser | null>>();
const accounts = new WeakMap<Api, Promise<Account | null>>();

/** Read once per signed-in api: the person does not change within a session. */
function currentUser(api: Api): Promise<CurrentUser | null> {
  let user = users.get(api);
  if (!user) {
    user = api.get<{ data: { user: CurrentUser | null } }>('/v2/sessions/current').then(
      (answer) => dataOf(answer).user ?? null,
      () => null,
    );
    users.set(api, user);
  }
  return user;
}

/**
 * The account and its settings (`GET /v2/account`), read once per signed-in api: which label
 * values the account enables. A key that may not read it (403) leaves the defaults.
 */
export function accountOf(api: Api): Promise<Account | null> {
  let account = accounts.get(api);
  if (!account) {
    account = api.get<{ data: Account }>('/v2/account').then(dataOf, (error: unknown) => {
      if (error instanceof ApiError && error.status === 403) return null;
      accounts.delete(api);
      throw error;
    });
    accounts.set(api, account);
  }
  return account;
}

export function useCurrentUser(api: Api): CurrentUser | null {
  return useLoad(() => currentUser(api), 'current-user').data ?? null;
}

export function usePotentialLabels(api: Api): boolean {
  return useLoad(async () => (await accountOf(api))?.settings.potentialLabelsEnabled === true, 'potential-labels').data ?? false;
}

/**
 * Whether the signed-in person's role allows acting as an analyst (labels, cases, payment
 * reviews): a viewer is shown the same pages without the controls; the server refuses anyway.
 */
export function useMayReview(): boolean {
  return useMayAct('analyst');
}
