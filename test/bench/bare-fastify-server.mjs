// The baseline: a bare Fastify HTTPS server answering a constant JSON, with the same TLS
// material as the service, so the benchmark's ratio isolates the service's own cost.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [certFile, keyFile, port] = process.argv.slice(2);
const app = Fastify({ https: { cert: readFileSync(certFile), key: readFileSync(keyFile) } });
const answer = { status: 200, timestamp: 0, data: { action: 'ALLOW', score: 0, source: 'RINGFENCE', customerId: 'c', scoreId: 's', warnings: [] } };
// Every route a benchmark loads answers the same constant: the baseline parses the body and
// answers JSON, nothing more (mixed-load.bench.mjs loads all of these).
const posts = ['/v2/customer', '/v2/supplier', '/v2/connect', '/v2/voucher/check', '/psp/transaction', '/v2/paymentmethod/voucher', '/v2/refund', '/v2/payout', '/v2/customer/:customerId/labels', '/v2/lookup'];
for (const path of posts) app.post(path, async () => answer);
app.get('/v2/lookup', async () => answer);
app.get('/health/live', async () => ({ status: 200 }));
await app.listen({ port: Number(port), host: '127.0.0.1' });
