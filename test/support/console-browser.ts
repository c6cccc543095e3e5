import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import type { EmbeddedService } from './embedded-service';

/**
 * The console's browser tests' shared setup (test/e2e/console.int-spec.ts,
 * test/e2e/workbench.int-spec.ts): Debian's `chromium` (.ci/run installs it; CHROMIUM_PATH
 * overrides) driven by puppeteer-core against the standalone app serving the built bundle
 * (`npm run build` writes dist/console). CONSOLE_SCREENSHOTS=1 writes pages to docs/console/.
 */
const ROOT = join(__dirname, '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1' ? join(ROOT, 'docs', 'console') : undefined;

/** The browser renders each page after its fetches answer: asynchronous by design, so the page is waited for. */
export const WAIT = { timeout: 20_000 };

export function assertConsoleBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'console', 'index.html'))) throw new Error('dist/console is missing: `npm run build` bundles the console');
  if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
}

export const originOf = (service: EmbeddedService) => `https://localhost:${(service.app.getHttpServer().address() as { port: number }).port}`;

export function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // The embedded service's certificate is self-signed; root (CI) needs --no-sandbox.
    acceptInsecureCerts: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/**
 * A page that records what a user would not see into `problems`: script errors, console errors
 * (a CSP refusal is one), the requests the server refused (method, path and status), and any
 * request to another host (refused, so nothing loads from it).
 */
export async function watchedPage(owner: Browser | BrowserContext, origin: string, problems: string[]): Promise<Page> {
  const page = await owner.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:') || url.startsWith('blob:')) {
      void request.continue();
    } else {
      problems.push(`request to another host: ${url}`);
      void request.abort();
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  // The browser's own line for a refused request names no request: this one says which, so a
  // failing test tells what the server refused.
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`refused: ${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`);
  });
  return page;
}

/** With CONSOLE_SCREENSHOTS=1, the whole page as docs/console/<name>.png (for docs/console.md). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

// Page functions are passed as text: the tests' types have no DOM (tsconfig lib).
export const textOf = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent ?? '');
export const clearInput = (page: Page, selector: string) => page.$eval(selector, (element) => ((element as unknown as { value: string }).value = ''));
