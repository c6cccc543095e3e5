import { allowedOriginProblem, allowedOriginsOf } from './allowed-origins';

describe('allowedOriginProblem', () => {
  it.each(['https://shop.example', 'http://127.0.0.1:8080', 'https://shop.example:8443', 'http://[::1]:3000'])('accepts %s', (origin) => {
    expect(allowedOriginProblem(origin)).toBeNull();
  });

  it.each(['https://shop.example/', 'https://shop.example/checkout', 'https://user:pw@shop.example', 'https://shop.example:443', 'HTTPS://Shop.example', 'ftp://shop.example', 'shop.example', '*', 7, null])(
    'refuses %s',
    (origin) => {
      expect(allowedOriginProblem(origin)).toMatch(/must be an exact origin/);
    },
  );
});

describe('allowedOriginsOf', () => {
  it('reads each data set its own list, none when unset', () => {
    const settings = { allowedOrigins: ['https://shop.example'], testAllowedOrigins: ['http://localhost:8080'] };

    expect(allowedOriginsOf(settings, 'live')).toEqual(['https://shop.example']);
    expect(allowedOriginsOf(settings, 'test')).toEqual(['http://localhost:8080']);
    expect(allowedOriginsOf({}, 'live')).toEqual([]);
  });
});
