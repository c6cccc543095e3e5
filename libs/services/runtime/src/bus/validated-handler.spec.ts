import { IsString } from 'class-validator';
import type { MessageEnvelope } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { validatedRequestHandler } from './validated-handler';

class EchoRequest {
  @IsString() text!: string;
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
