import type { SubjectType } from './types';

// Routes live in the URL's fragment (`/console#/rules/3`): the server serves one page, and a
// reload or a shared link opens the same view. Pure (no preact), so unit tests read it too.
export type Route =
  | { page: 'cases' }
  | { page: 'case'; caseId: string }
  | { page: 'search'; q: string }
  | { page: 'queue' }
  | { page: 'subject'; subjectType: SubjectType; subjectId: string }
  | { page: 'rules' }
  | { page: 'rule'; ruleId: number | 'new' }
  | { page: 'models' }
  | { page: 'overview' }
  | { page: 'settings' }
  | { page: 'users' };

/** A path segment as typed; a malformed escape (a hand-edited link) is kept as it is, not thrown. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  const [page, first] = parts;
  switch (page) {
    case 'cases':
      return { page: 'cases' };
    case 'case':
      if (first) return { page: 'case', caseId: decode(parts.slice(1).join('/')) };
      return { page: 'cases' };
    case 'search':
      return { page: 'search', q: decode(parts.slice(1).join('/')) };
    case 'queue':
      return { page: 'queue' };
    case 'customer':
    case 'supplier':
      if (first) return { page: 'subject', subjectType: page, subjectId: decode(parts.slice(1).join('/')) };
      break;
    case 'rules':
      if (first === 'new') return { page: 'rule', ruleId: 'new' };
      if (first && /^[0-9]+$/.test(first)) return { page: 'rule', ruleId: Number(first) };
      return { page: 'rules' };
    case 'models':
      return { page: 'models' };
    case 'overview':
      return { page: 'overview' };
    case 'settings':
      return { page: 'settings' };
    case 'users':
      return { page: 'users' };
  }
  // The first page: the analyst's cases (issue 37).
  return { page: 'cases' };
}

export function href(route: Route): string {
  switch (route.page) {
    case 'cases':
      return '#/cases';
    case 'case':
      return `#/case/${encodeURIComponent(route.caseId)}`;
    case 'search':
      return `#/search/${encodeURIComponent(route.q)}`;
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
    case 'overview':
      return '#/overview';
    case 'settings':
      return '#/settings';
    case 'users':
      return '#/users';
  }
}
