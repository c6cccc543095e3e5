import type { Browser, Page } from 'puppeteer-core';
import { WAIT, assertConsoleBuilt, launchBrowser, originOf, textOf as textIn, watchedPage } from '../support/console-browser';
import { type EmbeddedService, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';

type User = { userId: string; email: string; name: string; role: string; disabled: boolean };

/**
 * Issue 37's people in the console, in a real headless browser against the standalone app
 * serving the built bundle: a person signs in with e-mail and password, sees their name and
 * role, an admin adds and disables people on the Users page, a viewer is not shown the admin
 * pages, and signing out ends the session on the server. The browser renders after its fetches
 * answer: asynchronous by design, so the page is waited for; what the API stores is asserted
 * through the API, on the very next request.
 */
describe('the console: people sign in as themselves', () => {
  let service: EmbeddedService;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const problems: string[] = [];
  const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const admin = { email: `${unique('admin')}@shop.example`, name: 'Ada Admin', role: 'admin', password: 'the admin password' };
  const viewer = { email: `${unique('viewer')}@shop.example`, name: 'Vic Viewer', password: 'the viewer password' };

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown, apiKey = TEST_BOOTSTRAP_KEY) => service.client.send<T>({ method, path, body, apiKey });
  const textOf = (selector: string) => textIn(page, selector);
  const usersNow = async () => (await api<{ data: { users: User[] } }>('GET', '/v2/users')).body.data.users;

  async function signIn(person: { email: string; password: string }) {
    await page.goto(`${origin}/console`, { waitUntil: 'load' });
    await page.waitForSelector('input#email', WAIT);
    await page.type('input#email', person.email);
    await page.type('input#password', person.password);
    await page.click('form.person-sign-in button[type=submit]');
  }

  beforeAll(async () => {
    assertConsoleBuilt();
    service = await startEmbeddedService();
    origin = originOf(service);
    expect((await api('POST', '/v2/users', admin)).status).toBe(201);
    browser = await launchBrowser();
    page = await watchedPage(browser, origin, problems);
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('says a wrong password is wrong without signing in', async () => {
    await signIn({ email: admin.email, password: 'not the admin password' });
    await page.waitForSelector('form.person-sign-in .notice.error', WAIT);

    expect(await textOf('form.person-sign-in .notice.error')).toContain('401');
    expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual([]);
  });

  it("signs an admin in with e-mail and password: the header names them and their role, and shows Users", async () => {
    await signIn(admin);
    await page.waitForSelector('header.top .who .role', WAIT);

    expect(await textOf('header.top .who')).toContain('Ada Admin');
    expect(await textOf('header.top .who')).toContain('admin');
    expect(await page.$('nav a[href="#/users"]')).not.toBeNull();
    expect(String(await page.evaluate("sessionStorage.getItem('ringfence.console.key')"))).toMatch(/^rfs_/);
  });

  it("shows an admin the rule author's controls: a new rule and the training form", async () => {
    // The other half of the viewer's test below: the same selectors find the controls for a role that may use them.
    await page.click('nav a[href="#/rules"]');
    await page.waitForSelector('a[href="#/rules/new"]', WAIT);
    await page.click('nav a[href="#/models"]');
    await page.waitForSelector('#train-title', WAIT);
  });

  it('adds a person on the Users page, and disables them', async () => {
    await page.click('nav a[href="#/users"]');
    await page.waitForSelector('#new-user-title', WAIT);
    await page.type('#new-user-email', viewer.email);
    await page.type('#new-user-name', viewer.name);
    await page.select('#new-user-role', 'viewer');
    await page.type('#new-user-password', viewer.password);
    await page.click('#new-user-title ~ form button[type=submit]');
    await page.waitForSelector(`#new-user-title ~ form [role=status]::-p-text(${viewer.email} may now sign in)`, WAIT);

    const added = (await usersNow()).find((user) => user.email === viewer.email);
    expect(added).toMatchObject({ name: viewer.name, role: 'viewer', disabled: false });

    await page.waitForSelector(`tr[data-user-id="${added!.userId}"] button`, WAIT);
    await page.click(`tr[data-user-id="${added!.userId}"] button`);
    // Disabling ends their sessions: asked first, and nothing changes before the answer.
    await page.waitForSelector(`tr[data-user-id="${added!.userId}"] [role=alertdialog]`, WAIT);
    expect(await textOf(`tr[data-user-id="${added!.userId}"] [role=alertdialog]`)).toContain(`Disable ${viewer.email}?`);
    expect((await usersNow()).find((user) => user.userId === added!.userId)?.disabled).toBe(false);
    await page.click(`tr[data-user-id="${added!.userId}"] .confirm-live`);
    await page.waitForSelector(`tr[data-user-id="${added!.userId}"].disabled`, WAIT);
    expect((await usersNow()).find((user) => user.userId === added!.userId)?.disabled).toBe(true);

    await page.click(`tr[data-user-id="${added!.userId}"] button`);
    await page.waitForSelector(`tr[data-user-id="${added!.userId}"]:not(.disabled)`, WAIT);
    expect((await usersNow()).find((user) => user.userId === added!.userId)?.disabled).toBe(false);
  });

  it('signs out ending the session on the server: the token is refused on the very next request', async () => {
    const token = String(await page.evaluate("sessionStorage.getItem('ringfence.console.key')"));

    await page.click('header.top button::-p-text(Sign out)');
    await page.waitForSelector('input#email', WAIT);

    expect(await page.evaluate('Object.keys(sessionStorage)')).toEqual([]);
    expect((await api('GET', '/v2/auth/checktoken', undefined, token)).status).toBe(401);
  });

  it('shows a viewer neither Settings nor Users', async () => {
    await signIn(viewer);
    await page.waitForSelector('header.top .who .role', WAIT);

    expect(await textOf('header.top .who')).toContain('viewer');
    expect(await page.$('nav a[href="#/users"]')).toBeNull();
    expect(await page.$('nav a[href="#/settings"]')).toBeNull();
  });

  it('shows a viewer the rules and models without the controls a rule author needs', async () => {
    await page.click('nav a[href="#/rules"]');
    await page.waitForSelector('main h1::-p-text(Rules)', WAIT);
    await page.waitForSelector('main table, main .empty, main .notice', WAIT);
    expect(await page.$('a[href="#/rules/new"]')).toBeNull();

    await page.click('nav a[href="#/models"]');
    await page.waitForSelector('main h1::-p-text(Models)', WAIT);
    await page.waitForSelector('main table, main .empty', WAIT);
    expect(await page.$('#train-title')).toBeNull();
    // No Activate button is checked here: a fresh server has only the shipped default models,
    // active, and a trained model (20 labelled examples of each class) is not cheap to make.
  });

  it('reported no script error and no Content-Security-Policy refusal on the way', () => {
    // The one expected failure: the wrong password's 401 that the sign-in page showed (a refused request is logged by the browser).
    expect([...problems].sort()).toEqual(['console error: Failed to load resource: the server responded with a status of 401 (Unauthorized)', 'refused: POST /v2/sessions 401']);
  });
});
