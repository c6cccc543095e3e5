import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { type Role, type Session, mayAct } from './session';

/**
 * The signed-in session, given by the app to every page (issue 37). Pages read their role from
 * here, never from sessionStorage during a render: reading it there could forget an expired
 * session mid-render, and a page outside the provider sees no session and may do nothing.
 */
export const SessionContext = createContext<Session | null>(null);

/** Whether the signed-in session may do what `needed` allows (see mayAct); false without one. */
export function useMayAct(needed: Role): boolean {
  return mayAct(useContext(SessionContext), needed);
}
