import Fastify, { type FastifyInstance } from 'fastify';
import { registerJsonOnly } from './json-only.hook';

/** A bare Fastify with the JSON-only parsers, answering what each route received as its body. */
async function echoServer(): Promise<FastifyInstance> {
  const fastify = Fastify({ onProtoPoisoning: 'error', onConstructorPoisoning: 'error' });
  registerJsonOnly(fastify);
  for (const method of ['GET', 'DELETE', 'POST'] as const) {
    fastify.route({ method, url: '/echo', handler: async (request) => ({ absent: request.body === undefined, body: request.body ?? null }) });
  }
  await fastify.ready();
  return fastify;
}

describe('registerJsonOnly (issue 38: a JSON Content-Type without a body)', () => {
  let fastify: FastifyInstance;
  beforeAll(async () => {
    fastify = await echoServer();
  });
  afterAll(() => fastify.close());

  const inject = (method: 'GET' | 'DELETE' | 'POST', headers: Record<string, string>, payload?: string) => fastify.inject({ method, url: '/echo', headers, ...(payload === undefined ? {} : { payload }) });

  it.each(['DELETE', 'POST'] as const)('%s with application/json and Content-Length: 0 has no body (not a 400)', async (method) => {
    const response = await inject(method, { 'content-type': 'application/json; charset=utf-8', 'content-length': '0' }, '');
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status: 200, body: { absent: true, body: null } });
  });

  it('DELETE with application/json, chunked and empty, has no body', async () => {
    const response = await inject('DELETE', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, '');
    expect(response.json()).toEqual({ absent: true, body: null });
  });

  it('GET with application/json and no body has no body', async () => {
    const response = await inject('GET', { 'content-type': 'application/json' });
    expect(response.json()).toEqual({ absent: true, body: null });
  });

  it('a JSON body is still parsed; malformed JSON, blanks and prototype poisoning are still refused', async () => {
    expect((await inject('POST', { 'content-type': 'application/json' }, '{"a":1}')).json()).toEqual({ absent: false, body: { a: 1 } });
    expect((await inject('POST', { 'content-type': 'application/json' }, '{"a":')).statusCode).toBe(400);
    expect((await inject('POST', { 'content-type': 'application/json' }, '  ')).statusCode).toBe(400);
    expect((await inject('POST', { 'content-type': 'application/json' }, '{"__proto__":{"x":1}}')).statusCode).toBe(400);
  });

  it('any other type with a body is still refused (415)', async () => {
    expect((await inject('POST', { 'content-type': 'text/plain' }, 'hello')).statusCode).toBe(415);
  });
});
