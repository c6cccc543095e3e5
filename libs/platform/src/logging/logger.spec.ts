import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACTED_PATHS } from './logger';

describe('REDACTED_PATHS', () => {
  function logOnce(object: Record<string, unknown>): string {
    let output = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink).info(object, 'line');
    return output;
  }

  it('hides API keys in request headers', () => {
    const line = logOnce({ req: { headers: { authorization: 'token sk_test_secretsecret' } } });
    expect(line).not.toContain('sk_test_secretsecret');
    expect(line).toContain('[redacted]');
  });

  it('hides password hashes at any of the first levels', () => {
    const hash = 'a'.repeat(64);
    const line = logOnce({ passwordHash: hash, body: { passwordHash: hash }, event: { payload: { passwordHash: hash } } });
    expect(line).not.toContain(hash);
  });

  it('hides the password hashes of a request body, the credentials check and the admin import alike', () => {
    const hash = 'b'.repeat(64);
    const entries = [{ username: 'ada', passwordHash: hash }, { username: 'grace', passwordHash: hash }];
    const line = logOnce({ req: { body: { username: 'ada', passwordHash: hash } }, body: { entries }, request: { body: { entries } }, entries });
    expect(line).not.toContain(hash);
    expect(line).toContain('ada');
  });

  it('hides the callback secret of an account, its settings, a settings body and a failed statement', () => {
    const secret = 'whsec-do-not-log-0123456789';
    const line = logOnce({
      callbackSecret: secret,
      settings: { callbackSecret: secret, callbackUrl: 'https://hooks.example/', testCallbackSecret: secret },
      account: { settings: { callbackSecret: secret, testCallbackSecret: secret } },
      req: { body: { settings: { callbackSecret: secret } } },
      err: { message: 'duplicate key', parameters: ['acc_1', JSON.stringify({ callbackSecret: secret })] },
    });
    expect(line).not.toContain(secret);
    expect(line).toContain('https://hooks.example/');
  });

  it("hides the row values of a database error's detail, keeping what failed", () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint "uq_customers_email"'), {
      code: '23505',
      constraint: 'uq_customers_email',
      detail: 'Key (email)=(ada@example.com) already exists.',
      driverError: { code: '23505', detail: 'Key (email)=(ada@example.com) already exists.' },
    });
    const line = logOnce({ err: error, failure: { err: error } });
    expect(line).not.toContain('ada@example.com');
    expect(line).toContain('uq_customers_email');
  });
});
