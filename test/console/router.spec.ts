import { href, parseRoute } from '../../apps/console/src/routes';

/**
 * The console's routes live in the URL's fragment; a hand-edited or truncated link must open a
 * page, never throw at start-up (a malformed escape such as `%E0` is kept as typed).
 */
describe('parseRoute', () => {
  it.each([
    ['#/customer/%E0', { page: 'subject', subjectType: 'customer', subjectId: '%E0' }],
    ['#/supplier/a%2', { page: 'subject', subjectType: 'supplier', subjectId: 'a%2' }],
    ['#/case/%E0%A4', { page: 'case', caseId: '%E0%A4' }],
    ['#/search/100%', { page: 'search', q: '100%' }],
  ])('keeps the malformed escape of %s as typed', (hash, route) => {
    expect(parseRoute(hash)).toEqual(route);
  });

  it('decodes what href encoded', () => {
    const route = { page: 'subject', subjectType: 'customer', subjectId: 'cus/é 1%' } as const;
    expect(parseRoute(href(route))).toEqual(route);
  });
});
