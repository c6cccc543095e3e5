import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'puppeteer-core';
import { WAIT, assertConsoleBuilt, launchBrowser, originOf, screenshot, textOf, watchedPage } from '../support/console-browser';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, defaultAccountId, startEmbeddedService } from '../support/embedded-service';
import { customerRequest, pspTransactionRequest } from '../support/payload-factories';

const run = promisify(execFile);
const CLI = join(__dirname, '..', '..', 'bin', 'ringfence.js');

/**
 * Issue 37's "done when", in a real headless browser (test/support/console-browser.ts) against
 * the embedded server filled by the simulator: an analyst signs in as a named user, finds a
 * customer by e-mail, opens its case, sees the payments and their amounts, follows the path to a
 * fraudster in the network, decides a payment, closes the case, and the audit trail names her; a
 * second analyst sees the case as taken; no page error, nothing loaded from another host.
 * Every wait (WAIT) is on the page: it renders after its own fetches answer, asynchronous by
 * design. What the API stores is asserted through the API, on the very next request, unpolled.
 */
describe('the console as an analyst workbench', () => {
  let service: EmbeddedService;
  let browser: Browser;
  let second: BrowserContext;
  let page: Page;
  let origin: string;
  const problems: string[] = [];
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const ana = { email: `ana-${tag}@example.com`, name: 'Ana Analyst', password: `correct horse ${tag}` };
  const ben = { email: `ben-${tag}@example.com`, name: 'Ben Analyst', password: `battery staple ${tag}` };
  const data = { subject: `cus-wb-${tag}`, fraudster: `cus-wbf-${tag}`, email: `shared-${tag}@example.com`, payments: [] as string[], caseId: '', bensCase: '' };

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => service.client.send<T>({ method, path, body, apiKey: TEST_BOOTSTRAP_KEY });

  /** The simulator's marketplace, sent to the server: the data an analyst finds her case among. */
  async function simulate() {
    // The shipped thresholds send little of this small population to review: a rule sends the riskier payments, as an account starting out would.
    const rule = await api('POST', '/v2/rules', { name: 'Workbench e2e: review risky payments', checkpoint: 'pspBeforeAuth', expression: 'score >= 20', action: 'REVIEW', state: 'active' });
    expect(rule.status).toBe(201);
    const env = { PATH: process.env.PATH ?? '', RINGFENCE_URL: origin, ADMIN_API_KEY: TEST_ADMIN_KEY, DATA_DIR: service.dataDir };
    const { stdout } = await run(process.execPath, [CLI, 'simulate', '--seed', '37', '--customers', '40', '--days', '2', '--settle-days', '0', '--send', '--key', TEST_BOOTSTRAP_KEY, '--concurrency', '4'], { env, maxBuffer: 64 * 1024 * 1024 });
    const summary = JSON.parse(stdout) as { sent: number; rejected: { count: number }; actions: Record<string, number> };
    expect(summary.sent).toBeGreaterThan(50);
    expect(summary.actions.REVIEW).toBeGreaterThan(0);
    expect(summary.rejected.count).toBe(0);
  }

  /** Two payments of a customer under a REVIEW rule, sharing an e-mail with a labelled fraudster. */
  async function focusedCase() {
    const rule = await api('POST', '/v2/rules', { name: 'Workbench e2e: review the workbench customers', checkpoint: 'pspBeforeAuth', expression: 'payload.customer.customerId.startsWith("cus-wb-")', action: 'REVIEW', state: 'active' });
    expect(rule.status).toBe(201);
    expect((await api('POST', '/v2/customer', customerRequest({ customer: { customerId: data.fraudster, email: data.email, name: 'Eve Fraudster' } }))).status).toBe(200);
    expect((await api('POST', `/v2/customer/${data.fraudster}/labels`, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
    for (const amount of [12345, 4999]) {
      const payment = pspTransactionRequest({
        customer: { customerId: data.subject, email: data.email },
        device: { deviceId: `dev-wb-${tag}`, ipAddress: '198.51.100.37', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' },
        paymentMethod: { methodType: 'card', instrumentId: `ins-wb-${tag}`, iin: '411111', lastFour: '1111', countryIssued: 'GBR' },
        transaction: { amount, currency: 'GBP' },
      });
      const decided = await api<{ data: { action: string } }>('POST', '/psp/transaction?checkpoint=pspBeforeAuth', payment);
      expect(decided.body.data.action).toBe('REVIEW');
      data.payments.push(payment.transaction.transactionId);
    }
    const cases = await api<{ data: { cases: Array<{ caseId: string; decisionCount: number }> } }>('GET', `/v2/cases?subjectType=customer&subjectId=${data.subject}`);
    expect(cases.body.data.cases).toEqual([expect.objectContaining({ decisionCount: 2 })]);
    data.caseId = cases.body.data.cases[0]?.caseId ?? '';
  }

  async function signIn(target: Page, person: { email: string; password: string }) {
    await target.goto(`${origin}/console`, { waitUntil: 'load' });
    await target.waitForSelector('input#email', WAIT);
    await target.type('input#email', person.email);
    await target.type('input#password', person.password);
    await target.click('form:has(#email) button[type=submit]');
  }

  beforeAll(async () => {
    assertConsoleBuilt();
    service = await startEmbeddedService();
    origin = originOf(service);
    await simulate();
    for (const person of [ana, ben]) expect((await api('POST', '/v2/users', { ...person, role: 'analyst' })).status).toBe(201);
    await focusedCase();
    browser = await launchBrowser();
    page = await watchedPage(browser, origin, problems);
  }, 300_000);

  afterAll(async () => {
    await second?.close();
    await browser?.close();
    await service?.close();
  });

  it('signs an analyst in as herself and opens on the cases, hers among them', async () => {
    await signIn(page, ana);
    await page.waitForSelector(`tr[data-case-id="${data.caseId}"]`, WAIT);
    expect(await textOf(page, 'h1')).toBe('Cases');
    expect(await textOf(page, `tr[data-case-id="${data.caseId}"]`)).toContain('£173.44');
    // Among the simulated traffic's cases.
    expect(Number((await textOf(page, '.cases-total')).split(' ')[0])).toBeGreaterThan(1);
    await screenshot(page, 'cases');
  });

  it('finds the customer by e-mail, with the fraudster sharing it, and opens the case from its page', async () => {
    await page.type('#search-q', data.email);
    await page.click('.search-box button[type=submit]');
    await page.waitForSelector('table.search-results', WAIT);
    const results = await textOf(page, 'table.search-results');
    expect(results).toContain(data.subject);
    expect(results).toContain(data.fraudster);
    expect(results).toContain('FRAUDSTER');
    await screenshot(page, 'search');

    await page.click(`a.result-link[href="#/customer/${data.subject}"]`);
    await page.waitForSelector(`#subject-cases-title ~ table a.case-link`, WAIT);
    await page.click(`#subject-cases-title ~ table a.case-link`);
    await page.waitForSelector('table.case-decisions', WAIT);
    expect(await page.evaluate('window.location.hash')).toBe(`#/case/${data.caseId}`);
  });

  it('shows the payments with their amounts, card, device and IP address', async () => {
    const decisions = await textOf(page, 'table.case-decisions');
    expect(decisions).toContain('£123.45');
    expect(decisions).toContain('£49.99');
    await page.waitForSelector('table.payments', WAIT);
    const payments = await textOf(page, 'table.payments');
    expect(payments).toContain('£123.45');
    expect(payments).toContain('411111…1111');
    expect(payments).toContain('198.51.100.37');
    expect(payments).toContain(`dev-wb-${tag}`);
    expect(payments).not.toMatch(/\b1[0-9]{12}\b/);

    // Why a decision was made, in points that add up to its model score (read when opened).
    const why = 'table.case-decisions tr.why-row';
    await page.click(`${why} summary`);
    await page.waitForSelector(`${why} .score-sum`, WAIT);
    const sum = await textOf(page, `${why} .score-sum`);
    const [, base, raised, loweredSign, lowered, othersSign, others, score] = /(\d+(?:\.\d)?) base \+ (\d+(?:\.\d)?) raised ([+−]) (\d+(?:\.\d)?) lowered ([+−]) (\d+(?:\.\d)?) others = (\d+)/.exec(sum) ?? [];
    const signed = (sign: string | undefined, value: string | undefined) => (sign === '−' ? -1 : 1) * Number(value);
    expect(Math.abs(Number(base) + Number(raised) + signed(loweredSign, lowered) + signed(othersSign, others) - Number(score))).toBeLessThanOrEqual(1);
    const scoreId = await page.$eval(why, (row) => row.getAttribute('data-why-for') ?? '');
    const stored = await api<{ data: { explanation: { modelScore: number; baseScore: number } } }>('GET', `/v2/decisions/${scoreId}`);
    expect(Number(score)).toBe(stored.body.data.explanation.modelScore);
    expect(Number(base)).toBe(stored.body.data.explanation.baseScore);
  });

  it('highlights the path to the fraudster in the network, and the path opens the fraudster', async () => {
    await page.waitForSelector('.network canvas', WAIT);
    await page.waitForSelector('.fraud-path', WAIT);
    const path = await page.$eval('.network', (element) => element.getAttribute('data-path') ?? '');
    expect(path.split(' ')).toEqual([`customer:${data.subject}`, expect.stringMatching(/^email:/), `customer:${data.fraudster}`]);
    expect(await textOf(page, '.fraud-path')).toContain(data.fraudster);
    expect(await textOf(page, '.legend')).toContain('path to the nearest fraudster');
    await screenshot(page, 'case');

    // One kind of shared attribute at a time: the e-mail joins the two customers, nothing else.
    await page.select('#network-kind', path.split(' ')[1]?.split(':')[0] ?? '');
    await page.waitForFunction('document.querySelector(".network")?.getAttribute("data-node-count") === "3"', WAIT);
    expect(await page.$eval('.network', (element) => element.getAttribute('data-edge-count'))).toBe('2');

    await page.click(`.fraud-path a[href="#/customer/${data.fraudster}"]`);
    await page.waitForFunction(`document.querySelector('h1')?.textContent.includes(${JSON.stringify(data.fraudster)})`, WAIT);
    await page.goBack();
    await page.waitForSelector('table.case-decisions', WAIT);
  });

  it('claims the case and notes why; a second analyst sees it taken and is refused naming the first', async () => {
    await page.click('#case-claim');
    await page.waitForFunction('document.querySelector(".holder")?.textContent === "You hold this case."', WAIT);
    await page.type('#case-note', 'Shares her e-mail with a known fraudster');
    await page.click('#case-notes-title ~ form button[type=submit]');
    await page.waitForFunction(`document.querySelector('.notes')?.textContent.includes(${JSON.stringify(ana.email)})`, WAIT);
    expect(await textOf(page, '.notes')).toContain('Shares her e-mail with a known fraudster');

    second = await browser.createBrowserContext();
    const other = await watchedPage(second, origin, problems);
    await signIn(other, ben);
    // Next case: the oldest open case nobody holds, claimed for him: one of the simulated ones, not Ana's.
    await other.waitForSelector('#next-case', WAIT);
    await other.click('#next-case');
    await other.waitForFunction('document.querySelector(".holder")?.textContent === "You hold this case."', WAIT);
    // The focus moved to the case page's main landmark, not lost with the button that is gone.
    expect(await other.evaluate('document.activeElement?.id')).toBe('main');
    const hash = String(await other.evaluate('window.location.hash'));
    expect(hash).not.toBe(`#/case/${data.caseId}`);
    data.bensCase = decodeURIComponent(hash.replace('#/case/', ''));
    await other.goto(`${origin}/console#/case/${encodeURIComponent(data.caseId)}`, { waitUntil: 'load' });
    await other.waitForSelector('.holder', WAIT);
    expect(await textOf(other, '.holder')).toContain(ana.name);
    // The server refuses to claim or close a case another holds: the page offers neither, only taking it over.
    await other.waitForSelector('#case-take-over', WAIT);
    expect(await other.$('#case-claim')).toBeNull();
    expect(await other.$('#case-close')).toBeNull();
    // The refusal itself, as his session meets it: a claim of Ana's case names her.
    const session = await service.client.send<{ data: { token: string } }>({ method: 'POST', path: '/v2/sessions', body: { email: ben.email, password: ben.password } });
    const version = (await api<{ data: { case: { version: number } } }>('GET', `/v2/cases/${data.caseId}`)).body.data.case.version;
    const refused = await service.client.send<{ message?: string }>({ method: 'POST', path: `/v2/cases/${data.caseId}/claim`, body: { version }, apiKey: session.body.data.token });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain(ana.email);
    const held = await api<{ data: { case: { assignee: { email: string } } } }>('GET', `/v2/cases/${data.caseId}`);
    expect(held.body.data.case.assignee.email).toBe(ana.email);
    await other.close();
  });

  it('declines a payment (undone and declined again) and closes the case as fraud; the audit trail names the analyst', async () => {
    const row = `table.case-decisions .payment-actions[data-transaction-id="${data.payments[0]}"]`;
    await page.waitForSelector(`${row} button.decide-decline`, WAIT);
    await page.click(`${row} button.decide-decline`);
    await page.waitForSelector(`${row} .payment-review`, WAIT);
    expect(await textOf(page, `${row} .payment-review`)).toContain(ana.email);
    // Undone, then declined again: the audit trail keeps all three.
    await page.click(`${row} .payment-review button::-p-text(Undo)`);
    await page.waitForSelector(`${row} button.decide-decline`, WAIT);
    expect((await api<{ data: { decisions: Array<{ transactionId?: string; review?: unknown }> } }>('GET', `/v2/cases/${data.caseId}`)).body.data.decisions.find((decision) => decision.transactionId === data.payments[0])?.review ?? null).toBeNull();
    await page.click(`${row} button.decide-decline`);
    await page.waitForSelector(`${row} .payment-review`, WAIT);
    // The evidence below shows the same payment decided, not its buttons.
    await page.waitForSelector(`table.payments .payment-actions[data-transaction-id="${data.payments[0]}"] .payment-review`, WAIT);

    await page.select('#case-outcome', 'fraud');
    await page.click('#case-close');
    await page.waitForSelector('#case-reopen', WAIT);
    const stored = await api<{ data: { case: { status: string; outcome: string }; audit: Array<{ actor: string; action: string }>; decisions: Array<{ transactionId?: string; review?: { decision: string; actor: string } }> } }>('GET', `/v2/cases/${data.caseId}`);
    expect(stored.body.data.case).toMatchObject({ status: 'closed', outcome: 'fraud' });
    expect(stored.body.data.decisions.find((decision) => decision.transactionId === data.payments[0])?.review).toMatchObject({ decision: 'decline', actor: ana.email });
    // The row of the close, naming her (the claim's row named her already).
    const closeRow = `[...document.querySelectorAll('table.audit tbody tr')].some((row) => row.cells[1]?.textContent === ${JSON.stringify(ana.email)} && row.cells[2]?.textContent === 'close')`;
    await page.waitForFunction(closeRow, WAIT);
    const audit = await textOf(page, 'table.audit');
    expect(audit).toContain(ana.email);
    expect(stored.body.data.audit.filter((entry) => entry.actor === ana.email).map((entry) => entry.action)).toEqual(expect.arrayContaining(['claim', 'close']));
    expect(stored.body.data.audit.filter((entry) => entry.actor === ana.email).length).toBeGreaterThanOrEqual(6);
    expect(audit).not.toMatch(/\b1[0-9]{12}\b/);
  });

  it('takes over a case another analyst holds, after a step naming him', async () => {
    await page.goto(`${origin}/console#/case/${encodeURIComponent(data.bensCase)}`, { waitUntil: 'load' });
    await page.waitForSelector('#case-take-over', WAIT);
    expect(await textOf(page, '.holder')).toContain(ben.name);
    expect(await page.$('#case-claim')).toBeNull();
    await page.click('#case-take-over');
    await page.waitForSelector('.case-actions [role=alertdialog]', WAIT);
    expect(await textOf(page, '.case-actions [role=alertdialog]')).toContain(`${ben.name} (${ben.email}) holds this case`);
    // Not assigned before the confirmation.
    expect((await api<{ data: { case: { assignee: { email: string } } } }>('GET', `/v2/cases/${data.bensCase}`)).body.data.case.assignee.email).toBe(ben.email);
    await page.click('.case-actions .confirm-live');
    await page.waitForFunction('document.querySelector(".holder")?.textContent === "You hold this case."', WAIT);
    const taken = await api<{ data: { case: { assignee: { email: string } }; audit: Array<{ actor: string; action: string; detail: unknown }> } }>('GET', `/v2/cases/${data.bensCase}`);
    expect(taken.body.data.case.assignee.email).toBe(ana.email);
    expect(taken.body.data.audit.at(-1)).toMatchObject({ actor: ana.email, action: 'assign', detail: { from: ben.email, to: ana.email } });
    await page.waitForSelector('#case-close', WAIT);
  });

  it('shows the decided payment on the customer page, asks before a GENUINE label, preselects nothing, and undoes the last label', async () => {
    // The operator enables the POTENTIALLY_ reviews for the account: the form offers them after a reload.
    const enabled = await service.client.send({ method: 'PATCH', path: `/admin/accounts/${await defaultAccountId(service)}/settings`, body: { potentialLabelsEnabled: true }, apiKey: TEST_ADMIN_KEY });
    expect(enabled.status).toBe(200);
    await page.goto(`${origin}/console#/customer/${data.subject}`, { waitUntil: 'load' });
    await page.reload({ waitUntil: 'load' });
    // The customer's page shows the payment as decided too (its review read from the customer's cases).
    await page.waitForSelector(`table.payments .payment-actions[data-transaction-id="${data.payments[0]}"] .payment-review`, WAIT);
    expect(await textOf(page, `table.payments .payment-actions[data-transaction-id="${data.payments[0]}"] .payment-review`)).toContain(`declined by ${ana.email}`);
    await page.waitForSelector('form.label-form[data-category="PAYMENT_FRAUD"]', WAIT);
    const form = 'form.label-form[data-category="PAYMENT_FRAUD"]';
    expect(await page.$$eval(`${form} input[type=radio]:checked`, (checked) => checked.length)).toBe(0);
    await page.waitForSelector(`${form} input[value="POTENTIALLY_FRAUDSTER"]`, WAIT);
    expect(await page.$$eval(`${form} input[type=radio]`, (inputs) => inputs.map((input) => (input as unknown as { value: string }).value))).toEqual(['FRAUDSTER', 'GENUINE', 'POTENTIALLY_FRAUDSTER', 'POTENTIALLY_GENUINE', 'UNREVIEWED']);
    await page.click(`${form} input[value="GENUINE"]`);
    await page.click(`${form} button[type=submit]`);
    await page.waitForSelector(`${form} .confirm`, WAIT);
    expect(await textOf(page, `${form} .confirm`)).toContain('allows this customer at every checkpoint');
    const before = await api<{ data: { history: unknown[] } }>('GET', `/v2/customer/${data.subject}/labels`);
    expect(before.body.data.history).toEqual([]);
    await page.click(`${form} .confirm-live`);
    await page.waitForSelector(`${form} button.undo-label`, WAIT);
    const labelled = await api<{ data: { labels: Record<string, { review: string }> } }>('GET', `/v2/customer/${data.subject}/labels`);
    expect(labelled.body.data.labels.PAYMENT_FRAUD?.review).toBe('GENUINE');

    await page.click(`${form} button.undo-label`);
    await page.waitForFunction(`document.querySelector(${JSON.stringify(`${form} .label-done`)})?.textContent.includes('undone')`, WAIT);
    const undone = await api<{ data: { labels: Record<string, unknown>; history: unknown[] } }>('GET', `/v2/customer/${data.subject}/labels`);
    expect(undone.body.data.labels.PAYMENT_FRAUD).toBeUndefined();
    expect(undone.body.data.history).toHaveLength(2);
    // The page read the labels again: no current label, both changes in the history.
    await page.waitForFunction('document.querySelector("#labels-title")?.parentElement?.textContent.includes("No label.")', WAIT);
    await screenshot(page, 'customer-evidence');

    // An undo that restores a decisive review names it and asks first, as a new GENUINE label does.
    for (const review of ['GENUINE', 'POTENTIALLY_FRAUDSTER']) expect((await api('POST', `/v2/customer/${data.subject}/labels`, { category: 'PAYMENT_FRAUD', review })).status).toBe(200);
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(`document.querySelector(${JSON.stringify(`${form} button.undo-label`)})?.textContent.includes('back to GENUINE')`, WAIT);
    await page.click(`${form} button.undo-label`);
    await page.waitForSelector(`${form} [role=alertdialog]`, WAIT);
    expect(await textOf(page, `${form} [role=alertdialog]`)).toContain('Undo restores GENUINE. GENUINE allows this customer at every checkpoint');
    const asked = await api<{ data: { labels: Record<string, { review: string }> } }>('GET', `/v2/customer/${data.subject}/labels`);
    expect(asked.body.data.labels.PAYMENT_FRAUD?.review).toBe('POTENTIALLY_FRAUDSTER');
    await page.click(`${form} .confirm-live`);
    await page.waitForFunction(`document.querySelector(${JSON.stringify(`${form} .label-done`)})?.textContent.includes('undone')`, WAIT);
    const restored = await api<{ data: { labels: Record<string, { review: string }> } }>('GET', `/v2/customer/${data.subject}/labels`);
    expect(restored.body.data.labels.PAYMENT_FRAUD?.review).toBe('GENUINE');
  });

  it('lists the cases by filter and order, closed ones included, and closes a selection at once', async () => {
    await page.goto(`${origin}/console#/cases`, { waitUntil: 'load' });
    await page.waitForSelector('#cases-status', WAIT);
    await page.select('#cases-status', 'closed');
    await page.waitForSelector(`tr[data-case-id="${data.caseId}"]`, WAIT);
    expect(await textOf(page, `tr[data-case-id="${data.caseId}"]`)).toContain('closed: fraud');
    await page.select('#cases-order', 'amount');
    await page.waitForSelector(`tr[data-case-id="${data.caseId}"]`, WAIT);

    // Two open cases nobody holds, closed at once.
    await page.select('#cases-status', 'open');
    await page.select('#cases-assignee', 'none');
    // The page is busy until the cases of these filters are read: only then are the rows theirs.
    await page.waitForSelector('main[aria-busy="false"]', WAIT);
    const rows = await page.$$eval('table.cases tbody tr', (found) => found.map((row) => [row.cells[2]?.textContent ?? '', row.cells[3]?.textContent ?? '']));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every(([status, assignee]) => status === 'open' && assignee === 'nobody')).toBe(true);
    const chosen = await page.$$eval('table.cases tbody tr', (rows) => rows.slice(0, 2).map((row) => row.getAttribute('data-case-id') ?? ''));
    for (const caseId of chosen) await page.click(`tr[data-case-id="${caseId}"] input[type=checkbox]`);
    await page.select('.bulk select', 'no_action');
    await page.click('.bulk button::-p-text(Close selected)');
    await page.waitForFunction('document.querySelector(".bulk [role=status]")?.textContent.startsWith("2 done")', WAIT);
    for (const caseId of chosen) {
      const closed = await api<{ data: { case: { status: string; outcome: string } } }>('GET', `/v2/cases/${caseId}`);
      expect(closed.body.data.case).toMatchObject({ status: 'closed', outcome: 'no_action' });
    }
  });

  it('reported no script error, no CSP refusal and no request to another host on the way', () => {
    // The second analyst's refused claim went through the API, not the page: nothing is expected here.
    expect(problems).toEqual([]);
  });
});
