import { useEffect, useState } from 'preact/hooks';
import type { SubjectType } from './types';

// Routes live in the URL's fragment (`/console#/rules/3`): the server serves one page, and a
// reload or a shared link opens the same view.
export type Route =
  | { page: 'queue' }
  | { page: 'subject'; subjectType: SubjectType; subjectId: string }
  | { page: 'rules' }
  | { page: 'rule'; ruleId: number | 'new' }
  | { page: 'models' }
  | { page: 'settings' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  const [page, first] = parts;
  switch (page) {
    case 'customer':
    case 'supplier':
      if (first) return { page: 'subject', subjectType: page, subjectId: decodeURIComponent(parts.slice(1).join('/')) };
      break;
    case 'rules':
      if (first === 'new') return { page: 'rule', ruleId: 'new' };
      if (first && /^[0-9]+$/.test(first)) return { page: 'rule', ruleId: Number(first) };
      return { page: 'rules' };
    case 'models':
      return { page: 'models' };
    case 'settings':
      return { page: 'settings' };
  }
  return { page: 'queue' };
}

export function href(route: Route): string {
  switch (route.page) {
    case 'queue':
      return '#/queue';
    case 'subject':
      return `#/${route.subjectType}/${encodeURIComponent(route.subjectId)}`;
    case 'rules':
      return '#/rules';
    case 'rule':
      return `#/rules/${route.ruleId}`;
    case 'models':
      return '#/models';
    case 'settings':
      return '#/settings';
  }
}

export function navigate(route: Route): void {
  window.location.hash = href(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}
