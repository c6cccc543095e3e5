/** ADR-0006: usernames match trimmed and lower-cased, in the store and in the check. */
export function normaliseUsername(username: string): string {
  return username.trim().toLowerCase();
}
