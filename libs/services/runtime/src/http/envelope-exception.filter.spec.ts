import type { ArgumentsHost } from '@nestjs/common';
import { BusMessageRefusedError, BusUnavailableError } from '@ringfence/bus';
import { createLogger } from '@ringfence/platform';
import { EnvelopeExceptionFilter } from './envelope-exception.filter';
import type { RouteTable } from './route-table';

/** The status and envelope the filter answers `exception` with. */
function answerTo(exception: unknown): { status: number; body: { status: number; message: string } } {
  const answer = { status: 0, body: { status: 0, message: '' } };
  const reply = {
    status: (status: number) => ((answer.status = status), reply),
    headers: () => reply,
    type: () => reply,
    send: (body: { status: number; message: string }) => ((answer.body = body), Promise.resolve()),
  };
  const host = { switchToHttp: () => ({ getRequest: () => ({ id: 'trace-1', method: 'POST', url: '/v2/customer', routeOptions: { url: '/v2/customer' } }), getResponse: () => reply }) } as unknown as ArgumentsHost;
  const routes = { methodsFor: () => [] } as unknown as RouteTable;
  new EnvelopeExceptionFilter(createLogger({ level: 'silent', service: 'test' }), routes, 1024 * 1024).catch(exception, host);
  return answer;
}

describe(EnvelopeExceptionFilter.name, () => {
  describe('a message the event bus refuses for what it is (ADR-0016)', () => {
    it('answers 413 for one too large, naming the reason: the same body would be refused again, so no 503', () => {
      expect(answerTo(new BusMessageRefusedError('ringfence.ingest.customer.updated.v1', 'MESSAGE_TOO_LARGE'))).toMatchObject({
        status: 413,
        body: { status: 413, message: 'body: the event bus refused it (MESSAGE_TOO_LARGE); nothing was accepted' },
      });
    });

    it('answers 400 for a record refused for another reason', () => {
      expect(answerTo(new BusMessageRefusedError('ringfence.ingest.customer.updated.v1', 'INVALID_RECORD')).status).toBe(400);
    });

    it('still answers 503 when the bus is unavailable', () => {
      expect(answerTo(new BusUnavailableError('Kafka did not accept the message')).status).toBe(503);
    });
  });
});
