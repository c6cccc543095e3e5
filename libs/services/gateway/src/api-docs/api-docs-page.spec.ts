import { readFileSync } from 'node:fs';
import { API_DOCS_FILE, headingSlug, loadApiDocsPage, renderMarkdownPage } from './api-docs-page';

const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]));

describe('the served API documentation (docs/api.md at /docs/api)', () => {
  it('gives headings the anchors GitHub gives them', () => {
    expect(headingSlug('Labels (manual reviews)')).toBe('labels-manual-reviews');
    expect(headingSlug('Lookup (known-fraud indicators)')).toBe('lookup-known-fraud-indicators');
    expect(headingSlug('Voucher redemptions and the voucher network')).toBe('voucher-redemptions-and-the-voucher-network');
    expect(renderMarkdownPage('## Answers\n\n## Answers\n')).toMatch(/<h2 id="answers">Answers<\/h2>\n<h2 id="answers-1">Answers<\/h2>/);
  });

  it('resolves every in-page link of docs/api.md to an anchor of the rendered page', () => {
    const source = readFileSync(API_DOCS_FILE, 'utf8');
    const page = loadApiDocsPage();
    const targets = [...source.matchAll(/\]\(#([^)\s]+)\)/g)].map((match) => match[1]);

    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => !ids(page).has(target))).toEqual([]);
  });

  it('is a whole HTML page titled by the first heading, keeping the inline anchors', () => {
    const page = renderMarkdownPage('# API conventions\n\n- <a id="warning-x"></a>`x`: text\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');

    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<title>API conventions</title>');
    expect(page).toContain('<a id="warning-x"></a><code>x</code>: text');
    expect(page).toContain('<table>');
  });

  it('links nowhere for another file of the repository, naming it instead', () => {
    const page = renderMarkdownPage('See [the topics](contracts/topics.md) and [answers](#answers) or [the spec](https://example.com/spec).');

    expect(page).toContain('<span title="docs/contracts/topics.md in the Ringfence repository">the topics</span>');
    expect(page).toContain('<a href="#answers">answers</a>');
    expect(page).toContain('<a href="https://example.com/spec">the spec</a>');
  });

  it('names the missing file when the build left it out', () => {
    expect(() => loadApiDocsPage('/nonexistent/docs/api.md')).toThrow(/\/nonexistent\/docs\/api\.md is missing \(npm run build copies docs\/api\.md/);
  });
});
