// The fixed stack's floor: what a NestJS service on this product's stack pays before it does any
// work of its own. NestJS on its Fastify adapter over HTTPS (the service's TLS material), one
// route per path the mixed workload sends, each validating its body and query as the gateway's
// own DTO classes with the gateway's own pipe (`StrictValidationPipe`: class-transformer and the
// compiled class-validator rules), then answering a constant JSON.
//
// mixed-load.bench.mjs measures it beside the service and the bare Fastify server: the bare
// server's ratio to the floor bounds the ratio any service built on this stack can reach on this
// machine, and the floor's ratio to the service is the service's own cost.
//
// Plain JavaScript, so the decorators are applied as functions: the same calls TypeScript emits.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './bench-processes.mjs';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { Body, Controller, Get, HttpCode, Module, Post, Query } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const contracts = require(join(ROOT, 'dist/libs/contracts/src/index.js'));
const { StrictValidationPipe } = require(join(ROOT, 'dist/libs/services/runtime/src/index.js'));

const [certFile, keyFile, port] = process.argv.slice(2);
const answer = { status: 200, timestamp: 0, data: { action: 'ALLOW', score: 0, source: 'RINGFENCE', customerId: 'c', scoreId: 's', warnings: [] } };

// [method, path, body class, query class]: the classes the gateway's controllers validate these paths as.
const ROUTES = [
  ['POST', 'v2/customer', 'CustomerRequestDto', 'ScoreQueryDto'],
  ['POST', 'psp/transaction', 'PspTransactionRequestDto', 'PspTransactionQueryDto'],
  ['POST', 'v2/connect', 'ConnectRequestDto', 'ConnectQueryDto'],
  ['POST', 'v2/voucher/check', 'VoucherCheckRequestDto', undefined],
  ['POST', 'v2/paymentmethod/voucher', 'VoucherRedemptionRequestDto', 'VoucherRedemptionQueryDto'],
  ['POST', 'v2/refund', 'RefundRequestDto', 'ExplainQueryDto'],
  ['POST', 'v2/payout', 'PayoutRequestDto', 'ExplainQueryDto'],
  ['POST', 'v2/customer/:customerId/labels', 'CustomerLabelRequestDto', undefined],
  ['POST', 'v2/lookup', 'LookupAddRequestDto', undefined],
  ['GET', 'v2/lookup', undefined, 'LookupReadQueryDto'],
  // What bench-processes.mjs waits for.
  ['GET', 'health/live', undefined, undefined],
];

class FloorController {}
ROUTES.forEach(([method, path, bodyClass, queryClass], index) => {
  const name = `route${index}`;
  FloorController.prototype[name] = () => answer;
  const { prototype } = FloorController;
  const parameters = [bodyClass && [Body(), bodyClass], queryClass && [Query(), queryClass]].filter(Boolean);
  parameters.forEach(([decorate], position) => decorate(prototype, name, position));
  Reflect.defineMetadata('design:paramtypes', parameters.map(([, className]) => contracts[className]), prototype, name);
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
  (method === 'GET' ? Get(path) : Post(path))(prototype, name, descriptor);
  HttpCode(200)(prototype, name, descriptor);
});
Controller()(FloorController);
class FloorModule {}
Module({ controllers: [FloorController] })(FloorModule);

const adapter = new FastifyAdapter({ https: { cert: readFileSync(certFile), key: readFileSync(keyFile) } });
const app = await NestFactory.create(FloorModule, adapter, { logger: ['error'] });
app.useGlobalPipes(new StrictValidationPipe());
await app.listen(Number(port), '127.0.0.1');
