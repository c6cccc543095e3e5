import { parseBreachLine } from './breach-line';
import { sha256Hex } from './password-hash';

describe(parseBreachLine.name, () => {
  it('hashes a plaintext password and normalises the username', () => {
    expect(parseBreachLine(' Ada@Example.com :hunter2')).toEqual({
      ok: true,
      credential: { username: 'ada@example.com', passwordHash: sha256Hex('hunter2') },
    });
  });

  it('takes 64 hex characters as a hash already, in lower case', () => {
    const hash = sha256Hex('hunter2').toUpperCase();

    expect(parseBreachLine(`ada:${hash}`)).toEqual({ ok: true, credential: { username: 'ada', passwordHash: hash.toLowerCase() } });
  });

  it('splits at the first colon: passwords may hold colons, and keep their spaces', () => {
    expect(parseBreachLine('ada:pass:word ')).toEqual({ ok: true, credential: { username: 'ada', passwordHash: sha256Hex('pass:word ') } });
  });

  it('drops the carriage return of a CRLF file', () => {
    expect(parseBreachLine('ada:hunter2\r')).toEqual({ ok: true, credential: { username: 'ada', passwordHash: sha256Hex('hunter2') } });
  });

  it.each([
    ['no separator', 'just-a-username', 'no-separator'],
    ['a blank line', '', 'no-separator'],
    ['an empty username', ' :hunter2', 'empty-username'],
    ['an empty password', 'ada:', 'empty-password'],
    ['a username longer than 256 characters', `${'a'.repeat(257)}:hunter2`, 'username-too-long'],
  ])('skips %s', (_case, line, skip) => {
    expect(parseBreachLine(line)).toEqual({ ok: false, skip });
  });
});
