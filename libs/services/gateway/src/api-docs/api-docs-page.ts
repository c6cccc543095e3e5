import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import MarkdownIt from 'markdown-it';

/**
 * docs/api.md, the conventions every route shares, as the server reads it: beside the sources
 * (`docs/api.md` of the repository) and, in the built app, at `dist/docs/api.md`, which
 * tools/build.mjs copies there. Both sit five levels above this file's directory.
 */
export const API_DOCS_FILE = resolve(__dirname, '../../../../../docs/api.md');

type Token = MarkdownIt.Token;

/** GitHub's heading anchors, so that the document's own `#…` links work where it is served. */
export function headingSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function plainText(inline: Token | undefined): string {
  return (inline?.children ?? []).filter((child) => child.type === 'text' || child.type === 'code_inline').map((child) => child.content).join('');
}

const isRelativeFileLink = (href: string) => !/^([a-z][a-z0-9+.-]*:|#|\/)/i.test(href);

function markdownRenderer(): MarkdownIt.MarkdownIt {
  // The document is the project's own: its inline HTML (the `<a id>` anchors) is kept.
  const markdown = new MarkdownIt({ html: true, linkify: false, typographer: false });
  markdown.core.ruler.push('ringfence_anchors_and_links', (state) => {
    const used = new Map<string, number>();
    state.tokens.forEach((token, index) => {
      if (token.type === 'heading_open') {
        const base = headingSlug(plainText(state.tokens[index + 1]));
        const seen = used.get(base) ?? 0;
        used.set(base, seen + 1);
        token.attrSet('id', seen === 0 ? base : `${base}-${seen}`);
      }
      // A link to another file of the repository (`contracts/topics.md`) has no page here: keep
      // its text, name the file, and link nowhere.
      const open: Token[] = [];
      for (const child of token.children ?? []) {
        if (child.type === 'link_open') {
          const href = String(child.attrGet('href') ?? '');
          if (isRelativeFileLink(href)) {
            child.tag = 'span';
            child.attrs = [['title', `docs/${href} in the Ringfence repository`]];
          }
          open.push(child);
        } else if (child.type === 'link_close') {
          if (open.pop()?.tag === 'span') child.tag = 'span';
        }
      }
    });
  });
  return markdown;
}

const STYLE = `
  body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; }
  nav { padding: 0.6rem 1.5rem; border-bottom: 1px solid #d0d7de; font-size: 0.9rem; }
  main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
  code { font: 0.875em ui-monospace, SFMono-Regular, Menlo, monospace; background: #f6f8fa; padding: 0.1em 0.3em; border-radius: 4px; }
  pre { background: #f6f8fa; padding: 0.8rem 1rem; overflow-x: auto; border-radius: 6px; }
  pre code { padding: 0; background: none; }
  table { border-collapse: collapse; display: block; overflow-x: auto; }
  th, td { border: 1px solid #d0d7de; padding: 0.3rem 0.6rem; vertical-align: top; }
  :target { background: #fff8c5; }
`;

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/** A complete HTML page of a Markdown document: its first heading is the title. */
export function renderMarkdownPage(source: string): string {
  const markdown = markdownRenderer();
  const tokens = markdown.parse(source, {});
  const firstHeading = tokens.findIndex((token) => token.type === 'heading_open');
  const title = firstHeading >= 0 ? plainText(tokens[firstHeading + 1]) : 'Ringfence';
  const body = markdown.renderer.render(tokens, markdown.options, {});
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<nav><a href="/docs">Routes and schemas (OpenAPI)</a></nav>',
    `<main>\n${body}</main>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The rendered docs/api.md; throws, naming the file, when the build left it out. */
export function loadApiDocsPage(file: string = API_DOCS_FILE): string {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`the API documentation ${file} is missing (npm run build copies docs/api.md to dist/docs/api.md): ${(error as Error).message}`);
  }
  return renderMarkdownPage(source);
}
