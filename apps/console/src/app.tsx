import { useMemo, useState } from 'preact/hooks';
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
import { type Route, href, useRoute } from './router';
import { type Session, forgetSession, readSession, saveSession } from './session';

const NAVIGATION: Array<{ label: string; route: Route; pages: Array<Route['page']> }> = [
  { label: 'Cases', route: { page: 'cases' }, pages: ['cases', 'case', 'subject', 'search'] },
  { label: 'Review queue', route: { page: 'queue' }, pages: ['queue'] },
  { label: 'Rules', route: { page: 'rules' }, pages: ['rules', 'rule'] },
  { label: 'Models', route: { page: 'models' }, pages: ['models'] },
  { label: 'Overview', route: { page: 'overview' }, pages: ['overview'] },
  { label: 'Settings', route: { page: 'settings' }, pages: ['settings'] },
];

export function App() {
  const [session, setSession] = useState<Session | null>(readSession);
  const route = useRoute();
  const signOut = () => {
    forgetSession();
    setSession(null);
  };
  const api = useMemo(() => (session ? createApi(session.key, signOut) : null), [session]);

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
    <>
      <a class="skip-link" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Ringfence</span>
        <nav aria-label="Console">
          <ul>
            {NAVIGATION.map((item) => (
              <li key={item.label}>
                <a href={href(item.route)} aria-current={item.pages.includes(route.page) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <SearchBox key={route.page === 'search' ? route.q : ''} initial={route.page === 'search' ? route.q : ''} />
        <span class="who">{session.key.includes('_live_') ? 'live data' : 'test data'}</span>
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <Page route={route} session={session} api={api} />
    </>
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
  }
}
