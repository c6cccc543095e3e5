import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';

/** One file of the console's bundle, read once at start. */
export interface ConsoleAsset {
  name: string;
  body: Buffer;
  contentType: string;
  /** A strong validator of the content: the browser revalidates (`no-cache`) and gets a 304. */
  etag: string;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The names an asset may have: one path segment, no dot first (so never `..` or a hidden file). */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Where tools/build.mjs writes the bundle, `dist/console`. The built gateway runs from
 * `dist/libs/services/gateway/src/console`, five levels below `dist/`; the sources (tests run
 * them) sit five levels below the repository, whose build is in `dist/`.
 */
export const CONSOLE_DIRECTORIES: readonly string[] = [resolve(__dirname, '../../../../../console'), resolve(__dirname, '../../../../../dist/console')];

/**
 * Cytoscape (the network drawing) prepends this one `<style>` element to the page (its
 * container must be positioned). The policy allows exactly this text by its hash rather than
 * any inline style: the page itself has none.
 */
export const CYTOSCAPE_CONTAINER_STYLE = '.__________cytoscape_container { position: relative; }';

const styleHash = `'sha256-${createHash('sha256').update(CYTOSCAPE_CONTAINER_STYLE).digest('base64')}'`;

/**
 * Only the server's own files: no inline script, no other origin, no framing, no plugins. The
 * page calls the API on its own origin (`connect-src 'self'`).
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'self' ${styleHash}`,
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function etagOf(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/**
 * The console's built files (`index.html` and its assets), held in memory: a request can only
 * ever name one of the files listed here at start, so no path reaches the file system (no
 * traversal, no symlink followed later, no partial read during a rebuild).
 */
export class ConsoleAssets {
  private constructor(
    /** The directory the files came from; null when no build was found. */
    readonly directory: string | null,
    private readonly files: ReadonlyMap<string, ConsoleAsset>,
  ) {}

  /**
   * The bundle in the first of `directories` that holds its `entry` file (the console's
   * `index.html`; the web SDK's `ringfence.js`); none (every request a 404 naming the build) when
   * it was not built, so the API still starts.
   */
  static load(directories: readonly string[] = CONSOLE_DIRECTORIES, entry = 'index.html'): ConsoleAssets {
    const directory = directories.find((candidate) => existsSync(join(candidate, entry)));
    if (directory === undefined) return new ConsoleAssets(null, new Map());
    const files = new Map<string, ConsoleAsset>();
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const contentType = CONTENT_TYPES[extname(entry.name)];
      if (!entry.isFile() || contentType === undefined || !ASSET_NAME.test(entry.name)) continue;
      const body = readFileSync(join(directory, entry.name));
      files.set(entry.name, { name: entry.name, body, contentType, etag: etagOf(body) });
    }
    return new ConsoleAssets(directory, files);
  }

  get built(): boolean {
    return this.directory !== null;
  }

  /** The page itself. */
  index(): ConsoleAsset | undefined {
    return this.files.get('index.html');
  }

  /** An asset by its name as the URL gave it (decoded); undefined for any other name. */
  asset(name: string): ConsoleAsset | undefined {
    if (!ASSET_NAME.test(name) || name === 'index.html') return undefined;
    return this.files.get(name);
  }
}
