import { IsString, Validate, type ValidatorConstraintInterface, ValidatorConstraint } from 'class-validator';
import type { MessageEnvelope } from '@ringfence/contracts';
import { AppError, type Logger } from '@ringfence/platform';
import { validateInput } from '../http/validate-input';
import { validatedEventHandler, validatedRequestHandler } from './validated-handler';

/** Counts the validations it takes part in: one call per validation of a `text`. */
@ValidatorConstraint({ name: 'countedString' })
class CountedString implements ValidatorConstraintInterface {
  static calls = 0;
  validate(value: unknown): boolean {
    CountedString.calls += 1;
    return typeof value === 'string';
  }
}

class EchoRequest {
  @IsString() text!: string;
}

class CountedRequest {
  @Validate(CountedString) text!: string;
}

/** The ingest events are their request bodies under a topic's name: no rule of their own. */
class CountedEvent extends CountedRequest {}

const silentLogger = { error: jest.fn() } as unknown as Logger;

async function validated<T extends object>(inputClass: new () => T, plain: object): Promise<T> {
  const outcome = validateInput(inputClass, plain, 'payload');
  if (!outcome.ok) throw new Error(outcome.problems.join('; '));
  return outcome.value;
}

const envelope = (payload: unknown): MessageEnvelope<unknown> => ({
  eventId: 'e-1',
  accountId: 'acc_1',
  environment: 'test',
  subjectId: 'cus-1',
  acceptedAt: 1,
  traceId: 't-1',
  payload,
});

describe(validatedRequestHandler.name, () => {
  it('hands the handler a validated payload of the contract class', async () => {
    const handler = validatedRequestHandler(EchoRequest, async ({ payload }) => payload);
    await expect(handler(envelope({ text: 'hi', extra: 'dropped' }))).resolves.toEqual(Object.assign(new EchoRequest(), { text: 'hi' }));
  });

  it('answers an invalid payload with VALIDATION_FAILED naming the field', async () => {
    const handler = validatedRequestHandler(EchoRequest, async () => 'unreachable');
    await expect(handler(envelope({ text: 7 }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('text: must be a string') });
  });

  it('turns an unreachable database into DEPENDENCY_UNAVAILABLE (503)', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const handler = validatedRequestHandler(EchoRequest, async () => Promise.reject(refused));
    await expect(handler(envelope({ text: 'hi' }))).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', status: 503 });
  });

  it('lets other failures through unchanged', async () => {
    const failure = new AppError('NOT_FOUND', 'no such thing');
    const handler = validatedRequestHandler(EchoRequest, async () => Promise.reject(failure));
    await expect(handler(envelope({ text: 'hi' }))).rejects.toBe(failure);
  });
});

describe(validatedEventHandler.name, () => {
  beforeEach(() => {
    CountedString.calls = 0;
  });

  it('validates a plain object (JSON from Kafka or the event log) and hands over a new object', async () => {
    const seen: object[] = [];
    const handler = validatedEventHandler('topic', CountedEvent, silentLogger, async ({ payload }) => void seen.push(payload));
    const plain = { text: 'hi', extra: 'dropped' };
    await handler(envelope(plain));
    expect(CountedString.calls).toBe(1);
    expect(seen[0]).not.toBe(plain);
    expect(seen[0]).toEqual(Object.assign(new CountedEvent(), { text: 'hi' }));
  });

  it('hands an object the gateway validated to every consumer as it is, without validating it again', async () => {
    const body = await validated(CountedRequest, { text: 'hi' });
    expect(CountedString.calls).toBe(1);
    const seen: object[] = [];
    const consumers = [1, 2, 3].map(() => validatedEventHandler('topic', CountedEvent, silentLogger, async ({ payload }) => void seen.push(payload)));
    for (const consumer of consumers) await consumer(envelope(body));
    expect(CountedString.calls).toBe(1);
    expect(seen).toEqual([body, body, body]);
    expect(seen.every((payload) => payload === body)).toBe(true);
  });

  it('validates a copy of a payload it cannot take as it is, leaving the shared object as it was', async () => {
    const seen: object[] = [];
    const handler = validatedEventHandler('topic', CountedEvent, silentLogger, async ({ payload }) => void seen.push(payload));
    // Published by hand (no validation): other consumers and the publisher read this very object.
    const shared = { text: 'hi', extra: 'kept for the others' };
    await handler(envelope(shared));
    expect(seen).toEqual([{ text: 'hi' }]);
    expect(shared).toEqual({ text: 'hi', extra: 'kept for the others' });
  });

  it('validates an instance built by hand, and skips it when it is invalid', async () => {
    const handled = jest.fn(async () => undefined);
    const handler = validatedEventHandler('topic', CountedEvent, silentLogger, handled);
    await handler(envelope(Object.assign(new CountedEvent(), { text: 7 })));
    expect(CountedString.calls).toBe(1);
    expect(handled).not.toHaveBeenCalled();
  });
});

describe(`${validatedRequestHandler.name} on a validated payload`, () => {
  it('answers from the validated object without validating it again', async () => {
    CountedString.calls = 0;
    const body = await validated(CountedRequest, { text: 'hi' });
    const handler = validatedRequestHandler(CountedEvent, async ({ payload }) => payload);
    await expect(handler(envelope(body))).resolves.toBe(body);
    expect(CountedString.calls).toBe(1);
  });

  it('hands on the envelope it was given when it takes the payload as it is, and a new one with a validated copy', async () => {
    const received: Array<MessageEnvelope<object>> = [];
    const handler = validatedRequestHandler(CountedEvent, async (message) => void received.push(message));
    const taken = envelope(await validated(CountedRequest, { text: 'hi' }));
    const copied = envelope({ text: 'hi', extra: 'dropped' });
    await handler(taken);
    await handler(copied);
    expect(received[0]).toBe(taken);
    expect(received[1]).not.toBe(copied);
    expect(received[1]).toEqual({ ...copied, payload: Object.assign(new CountedEvent(), { text: 'hi' }) });
  });
});
