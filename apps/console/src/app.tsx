import { useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { createApi } from './api';
import { SearchBox } from './components/search-box';
import { CasePage } from './pages/case';
import { Cases } from './pages/cases';
import { Models } from './pages/models';
import { OverviewPage } from './pages/overview';
import { Queue } from './pages/queue';
import { RuleEditor } from './pages/rule-editor';
import { Rules } from './pages/rules';
import { Search } from './pages/search';
import { Settings } from './pages/settings';
import { SignIn } from './pages/sign-in';
import { Subject } from './pages/subject';
import { Users } from './pages/users';
import { type Route, href, useRoute } from './router';
import { SessionContext } from './session-context';
import { ROLE_LABELS, type Role, type Session, environmentOf, forgetSession, mayAct, readSession, saveSession } from './session';

// `role`: shown to a person of that role or above, and to a secret key (issue 37).
const NAVIGATION: Array<{ label: string; route: Route; pages: Array<Route['page']>; role?: Role }> = [
  { label: 'Cases', route: { page: 'cases' }, pages: ['cases', 'case', 'subject', 'search'] },
  { label: 'Review queue', route: { page: 'queue' }, pages: ['queue'] },
  { label: 'Rules', route: { page: 'rules' }, pages: ['rules', 'rule'] },
  { label: 'Models', route: { page: 'models' }, pages: ['models'] },
  { label: 'Overview', route: { page: 'overview' }, pages: ['overview'] },
  { label: 'Settings', route: { page: 'settings' }, pages: ['settings'], role: 'admin' },
  { label: 'Users', route: { page: 'users' }, pages: ['users'], role: 'admin' },
];

export function App() {
  const [session, setSession] = useState<Session | null>(readSession);
  const route = useRoute();
  useFocusOnNavigation(href(route));
  const signOut = () => {
    forgetSession();
    setSession(null);
  };
  const api = useMemo(() => (session ? createApi(session.key, signOut) : null), [session]);
  // A person's session ends on the server too (DELETE /v2/sessions/current), before the page
  // says so; a key has nothing to end. Forgotten here whatever the server answers.
  const endSession = async () => {
    if (session?.person && api) await api.send('DELETE', '/v2/sessions/current').catch(() => undefined);
    signOut();
  };

  if (!session || !api) {
    return (
      <SignIn
        onSignedIn={(signedIn) => {
          saveSession(signedIn);
          setSession(signedIn);
        }}
      />
    );
  }

  return (
    <SessionContext.Provider value={session}>
      <a class="skip-link" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Ringfence</span>
        <nav aria-label="Console">
          <ul>
            {NAVIGATION.filter((item) => !item.role || mayAct(session, item.role)).map((item) => (
              <li key={item.label}>
                <a href={href(item.route)} aria-current={item.pages.includes(route.page) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <SearchBox key={route.page === 'search' ? route.q : ''} initial={route.page === 'search' ? route.q : ''} />
        <Who session={session} />
        <button type="button" class="secondary" onClick={() => void endSession()}>
          Sign out
        </button>
      </header>
      <Page route={route} session={session} api={api} />
    </SessionContext.Provider>
  );
}

/**
 * After a route change (a link, "Next case", the search box), focus moves to the new page's
 * main landmark (tabindex -1 on every page's main), so keyboard and screen-reader users start
 * at its heading rather than on an element that is gone. Not on the first page shown.
 * A layout effect: it runs as the new page is put in the document, before anything can be typed
 * into it. An effect after paint could take the focus from a field someone had already started
 * typing into, and the rest of what they typed went nowhere (the people browser spec met that).
 */
function useFocusOnNavigation(location: string) {
  const first = useRef(true);
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus();
  }, [location]);
}

/** Who is signed in (a person's name and role, or the secret key) and on which data set. */
function Who({ session }: { session: Session }) {
  const data = environmentOf(session) === 'live' ? 'live data' : 'test data';
  if (!session.person) return <span class="who">secret key · {data}</span>;
  return (
    <span class="who">
      {session.person.name}
      <span class="badge role">{ROLE_LABELS[session.person.role]}</span> · {data}
    </span>
  );
}

function Page({ route, session, api }: { route: Route; session: Session; api: NonNullable<ReturnType<typeof createApi>> }) {
  switch (route.page) {
    case 'cases':
      return <Cases api={api} />;
    case 'case':
      return <CasePage key={route.caseId} api={api} reviewer={session.reviewer} caseId={route.caseId} />;
    case 'search':
      return <Search key={route.q} api={api} q={route.q} />;
    case 'queue':
      return <Queue api={api} reviewer={session.reviewer} />;
    case 'subject':
      return <Subject key={`${route.subjectType}/${route.subjectId}`} api={api} reviewer={session.reviewer} subjectType={route.subjectType} subjectId={route.subjectId} />;
    case 'rules':
      return <Rules api={api} />;
    case 'rule':
      return <RuleEditor key={String(route.ruleId)} api={api} ruleId={route.ruleId} />;
    case 'models':
      return <Models api={api} />;
    case 'overview':
      return <OverviewPage api={api} />;
    case 'settings':
      return <Settings api={api} />;
    case 'users':
      return <Users api={api} session={session} />;
  }
}
