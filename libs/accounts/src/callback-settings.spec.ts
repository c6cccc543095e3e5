import { CALLBACK_URL_RULE, callbackSettingsProblem, callbackTargetOf, callbackUrlProblem, publicAccountSettings } from './callback-settings';

describe(callbackUrlProblem.name, () => {
  it.each(['https://hooks.merchant.example/ringfence', 'https://hooks.merchant.example:8443/a?b=c', 'http://10.20.0.5:4100/hook', 'http://127.0.0.1:41234/hook'])(
    'accepts the form of %s (where it may reach is checked by resolving it)',
    (url) => {
      expect(callbackUrlProblem(url)).toBeNull();
    },
  );

  it.each([
    ['another scheme', 'ftp://hooks.merchant.example/'],
    ['credentials in the URL', 'https://user:pass@hooks.merchant.example/'],
    ['no URL at all', 'hooks.merchant.example'],
    ['a URL too long', `https://hooks.merchant.example/${'a'.repeat(2048)}`],
    ['not a string', 42],
  ])('refuses %s', (_case, url) => {
    expect(callbackUrlProblem(url)).toBe(CALLBACK_URL_RULE);
  });
});

describe(callbackTargetOf.name, () => {
  const settings = { callbackUrl: 'https://live.example/', callbackSecret: 'a-live-secret-of-16', testCallbackUrl: 'https://sandbox.example/', testCallbackSecret: 'a-test-secret-of-16' };

  it("answers each data set's own URL and secret: the sandbox's never the live one's", () => {
    expect(callbackTargetOf(settings, 'live')).toEqual({ callbackUrl: 'https://live.example/', callbackSecret: 'a-live-secret-of-16' });
    expect(callbackTargetOf(settings, 'test')).toEqual({ callbackUrl: 'https://sandbox.example/', callbackSecret: 'a-test-secret-of-16' });
  });

  it('answers no sandbox callbacks for an account that set only the live ones (as every account did before they were per data set)', () => {
    expect(callbackTargetOf({ callbackUrl: 'https://live.example/', callbackSecret: 'a-live-secret-of-16' }, 'test')).toEqual({ callbackUrl: null, callbackSecret: null });
  });
});

describe(callbackSettingsProblem.name, () => {
  const secret = 'a-secret-of-16-chars';

  it('lets a URL be set with a secret sent alongside or stored before', () => {
    expect(callbackSettingsProblem({}, { callbackUrl: 'https://a.example/', callbackSecret: secret })).toBeNull();
    expect(callbackSettingsProblem({ callbackSecret: secret }, { callbackUrl: 'https://a.example/' })).toBeNull();
  });

  it('refuses a URL without a secret, and clearing the secret of a URL that stays, naming callbackSecret', () => {
    expect(callbackSettingsProblem({}, { callbackUrl: 'https://a.example/' })).toMatch(/^callbackSecret: is required/);
    expect(callbackSettingsProblem({ callbackUrl: 'https://a.example/', callbackSecret: secret }, { callbackSecret: null })).toMatch(/^callbackSecret: /);
  });

  it('lets both be cleared, or the URL alone', () => {
    expect(callbackSettingsProblem({ callbackUrl: 'https://a.example/', callbackSecret: secret }, { callbackUrl: null, callbackSecret: null })).toBeNull();
    expect(callbackSettingsProblem({ callbackUrl: 'https://a.example/', callbackSecret: secret }, { callbackUrl: null })).toBeNull();
  });
});

describe(publicAccountSettings.name, () => {
  it('replaces the secret by whether one is set, and keeps every other setting', () => {
    const shown = publicAccountSettings({ callbackUrl: 'https://a.example/', callbackSecret: 'a-secret-of-16-chars', defaultAction: 'REVIEW' });

    expect(shown).toEqual({ callbackUrl: 'https://a.example/', callbackSecretSet: true, defaultAction: 'REVIEW' });
    expect(JSON.stringify(shown)).not.toContain('a-secret-of-16-chars');
  });

  it('replaces the sandbox secret too', () => {
    expect(publicAccountSettings({ testCallbackUrl: 'https://b.example/', testCallbackSecret: 'a-test-secret-of-16' })).toEqual({ testCallbackUrl: 'https://b.example/', testCallbackSecretSet: true });
  });

  it('says no secret is set once it was cleared, and, like any setting never set, nothing before', () => {
    expect(publicAccountSettings({ callbackSecret: null })).toEqual({ callbackSecretSet: false });
    expect(publicAccountSettings({ defaultAction: 'ALLOW' })).toEqual({ defaultAction: 'ALLOW' });
  });
});
