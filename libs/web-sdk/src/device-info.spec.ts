import { webcrypto } from 'node:crypto';
import { type BrowserFacts, describeDevice, fingerprintOf } from './device-info';

const subtle = webcrypto.subtle as unknown as SubtleCrypto;

const facts = (overrides: { navigator?: Partial<BrowserFacts['navigator']>; screen?: Partial<BrowserFacts['screen']>; timeZone?: string } = {}): BrowserFacts => ({
  navigator: {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
    language: 'en-GB',
    languages: ['en-GB', 'en'],
    platform: 'Linux x86_64',
    webdriver: false,
    hardwareConcurrency: 8,
    maxTouchPoints: 0,
    ...overrides.navigator,
  },
  screen: { width: 1920, height: 1080, colorDepth: 24, ...overrides.screen },
  devicePixelRatio: 1,
  timeZone: overrides.timeZone ?? 'Europe/London',
});

describe('describeDevice', () => {
  it('reports what the browser tells, webdriver included, with a SHA-256 fingerprint', async () => {
    const report = await describeDevice(subtle, facts({ navigator: { webdriver: true } }));

    expect(report).toEqual({
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
      languages: ['en-GB', 'en'],
      timeZone: 'Europe/London',
      screen: { width: 1920, height: 1080, colorDepth: 24, pixelRatio: 1 },
      platform: 'Linux x86_64',
      webdriver: true,
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });
});

describe('fingerprintOf', () => {
  it('is the same for the same browser, turned or not, and whatever webdriver says', async () => {
    const fingerprint = await fingerprintOf(subtle, facts());

    expect(await fingerprintOf(subtle, facts())).toBe(fingerprint);
    expect(await fingerprintOf(subtle, facts({ screen: { width: 1080, height: 1920 } }))).toBe(fingerprint);
    expect(await fingerprintOf(subtle, facts({ navigator: { webdriver: true } }))).toBe(fingerprint);
  });

  it.each([
    ['time zone', facts({ timeZone: 'America/New_York' })],
    ['languages', facts({ navigator: { languages: ['fr-FR'] } })],
    ['screen', facts({ screen: { width: 1366, height: 768 } })],
    ['cores', facts({ navigator: { hardwareConcurrency: 4 } })],
    ['user agent', facts({ navigator: { userAgent: 'Mozilla/5.0 (Windows NT 10.0) Chrome/130.0' } })],
  ])('changes with the %s', async (_attribute, changed) => {
    expect(await fingerprintOf(subtle, changed)).not.toBe(await fingerprintOf(subtle, facts()));
  });
});
