import { type Server, createServer } from 'node:http';
import { type AddressInfo, type Server as NetServer, type Socket, createServer as createNetServer } from 'node:net';
import { CallbackAddressPolicy } from './callback-address-policy';
import { CallbackDestinations } from './callback-destinations';
import { CallbackDispatcher, DEFAULT_MAX_ATTEMPTS_PER_ACCOUNT } from './callback-dispatcher';
import { HttpCallbackSender } from './callback-sender';
import { SettingsCallbackTargets } from './callback-targets';
import { InMemoryCallbackDeliveryRepository } from './test-support/in-memory-callback-delivery.repository';

/**
 * ADR-0016, "each account gets its share of the dispatcher": through real HTTP, account A's
 * receiver accepts connections and never answers (a black hole); account B's answers at once.
 */
describe(`${CallbackDispatcher.name} between accounts`, () => {
  let blackHole: NetServer;
  const heldOpen = new Set<Socket>();
  let receiver: Server;
  const receivedAt: number[] = [];
  let dispatcher: CallbackDispatcher | null = null;

  beforeAll(async () => {
    blackHole = createNetServer((socket) => {
      heldOpen.add(socket);
      socket.on('close', () => heldOpen.delete(socket));
    });
    receiver = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        receivedAt.push(Date.now());
        response.writeHead(204).end();
      });
    });
    await Promise.all([
      new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve)),
      new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve)),
    ]);
  });

  afterAll(async () => {
    await dispatcher?.stop();
    for (const socket of heldOpen) socket.destroy();
    receiver.closeAllConnections();
    await Promise.all([new Promise((resolve) => blackHole.close(resolve)), new Promise((resolve) => receiver.close(resolve))]);
  });

  it("delivers B's callbacks at once while A's receiver holds every attempt A makes until its timeout", async () => {
    const urls: Record<string, string> = {
      acc_a: `http://127.0.0.1:${(blackHole.address() as AddressInfo).port}/hook`,
      acc_b: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    };
    const deliveries = new InMemoryCallbackDeliveryRepository();
    const startedAt = Date.now();
    // A's backlog is due first: a dispatcher that served the earliest due would give it every slot.
    for (let count = 0; count < 40; count += 1) {
      await deliveries.record({ deliveryId: `dlv_a${count}`, accountId: 'acc_a', environment: 'live', sourceEventId: `a${count}`, url: urls.acc_a!, body: '{}', changedAt: startedAt - 1_000, createdAt: startedAt - 1_000 + count });
    }
    for (let count = 0; count < 3; count += 1) {
      await deliveries.record({ deliveryId: `dlv_b${count}`, accountId: 'acc_b', environment: 'live', sourceEventId: `b${count}`, url: urls.acc_b!, body: '{}', changedAt: startedAt, createdAt: startedAt });
    }
    dispatcher = new CallbackDispatcher({
      deliveries,
      targets: new SettingsCallbackTargets(async ({ accountId }) => ({ callbackUrl: urls[accountId] ?? null, callbackSecret: 'a-callback-secret-of-some-length' })),
      sender: new HttpCallbackSender(new CallbackDestinations(new CallbackAddressPolicy(['127.0.0.0/8']))),
      logger: { info: () => undefined, warn: () => undefined },
      attemptTimeoutMs: 5_000,
    });

    dispatcher.start();
    // Asynchronous by design: wait for B's three deliveries, no longer than a second (A's
    // attempts each hold their slot for the 5 s timeout).
    const deadline = Date.now() + 1_000;
    while (receivedAt.length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));

    expect(receivedAt).toHaveLength(3);
    expect(Math.max(...receivedAt) - startedAt).toBeLessThan(1_000);
    // A holds its share and no more: the rest of its backlog waits for its own slots.
    expect(heldOpen.size).toBe(DEFAULT_MAX_ATTEMPTS_PER_ACCOUNT);
    expect(deliveries.rows.filter((row) => row.accountId === 'acc_a' && row.attempts.length > 0)).toEqual([]);
  });
});
