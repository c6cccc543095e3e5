import { customerRequest, pspTransactionRequest } from '../../support/payload-factories';
import type { AdversarialServer, Tenant } from './adversarial-server';

/** The client's budget of issue 32's "Done when": an answer later than this is a timeout at the merchant. */
export const CLIENT_BUDGET_MS = 750;

type Warning = { class: string };
type CheckpointAnswer = { data?: { action?: string; source?: string; scoreId?: string; warnings?: Warning[] } };

/** What one checkpoint of a tenant got, and whether its decision read back on the next request. */
export interface CheckpointObservation {
  path: string;
  /** Null when no answer came within the tier's request timeout. */
  status: number | null;
  elapsedMs: number;
  action?: string;
  source?: string;
  scoreId?: string;
  degraded: boolean;
  /** The status of `GET /v2/decisions/:scoreId` sent right after the answer; null when not asked. */
  readBackStatus: number | null;
  error?: string;
}

let sequence = 0;
const nextId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** The checkpoints an ordinary integration calls, in turn: a customer update, a voucher redemption, a PSP transaction before authorisation. */
const ORDINARY_CHECKPOINTS: Array<{ path: string; body: () => object }> = [
  { path: '/v2/customer', body: () => customerRequest() },
  {
    path: '/v2/paymentmethod/voucher',
    body: () => ({ timestamp: Date.now(), voucherRedemption: { voucherCode: nextId('WELCOME'), success: true }, customerId: nextId('cus') }),
  },
  { path: '/psp/transaction?checkpoint=pspBeforeAuth', body: () => pspTransactionRequest() },
];

/**
 * Sends `count` ordinary checkpoints for `tenant` (its live key, one after another) and reads each
 * decision back by its scoreId on the very next request. Stops at the first request that gets no
 * answer: the ones after it would only wait as long.
 */
export async function observeCheckpoints(server: AdversarialServer, tenant: Tenant, count: number, apiKey = tenant.secretLive): Promise<CheckpointObservation[]> {
  const observations: CheckpointObservation[] = [];
  for (let index = 0; index < count; index += 1) {
    const { path, body } = ORDINARY_CHECKPOINTS[index % ORDINARY_CHECKPOINTS.length];
    const started = performance.now();
    let observation: CheckpointObservation;
    try {
      const answer = await server.send<CheckpointAnswer>({ method: 'POST', path, body: body(), apiKey });
      const data = answer.body?.data ?? {};
      observation = {
        path,
        status: answer.status,
        elapsedMs: Math.round(performance.now() - started),
        action: data.action,
        source: data.source,
        scoreId: data.scoreId,
        degraded: (data.warnings ?? []).some((warning) => warning.class === 'degraded'),
        readBackStatus: null,
      };
    } catch (error) {
      observations.push({ path, status: null, elapsedMs: Math.round(performance.now() - started), degraded: false, readBackStatus: null, error: String(error) });
      break;
    }
    if (observation.scoreId !== undefined) {
      try {
        observation.readBackStatus = (await server.send({ path: `/v2/decisions/${encodeURIComponent(observation.scoreId)}`, apiKey })).status;
      } catch (error) {
        observation.error = `reading the decision back: ${String(error)}`;
      }
    }
    observations.push(observation);
  }
  return observations;
}

/** Why each observation is not a real decision in time; empty when every one is. */
export function problemsWith(observations: CheckpointObservation[]): string[] {
  return observations.flatMap((observation, index) => {
    const where = `checkpoint ${index + 1} (${observation.path})`;
    if (observation.status === null) return [`${where}: no answer (${observation.error})`];
    if (observation.status !== 200) return [`${where}: answered ${observation.status}`];
    const problems: string[] = [];
    if (observation.elapsedMs >= CLIENT_BUDGET_MS) problems.push(`${where}: took ${observation.elapsedMs} ms, past the ${CLIENT_BUDGET_MS} ms budget`);
    if (observation.degraded) problems.push(`${where}: a degraded answer (the default action, not scored)`);
    if (observation.scoreId === undefined) problems.push(`${where}: no scoreId`);
    else if (observation.readBackStatus !== 200) problems.push(`${where}: GET /v2/decisions/${observation.scoreId} answered ${observation.readBackStatus ?? observation.error}`);
    return problems;
  });
}

/**
 * Issue 32's measure of an attack's harm to others: `count` checkpoints of `tenant`, each answered
 * 200 within 750 ms with a real decision (no `degraded` warning, a scoreId) that reads back by its
 * scoreId on the next request. Prints the slowest answer under `label` (what the tier measured).
 */
export async function expectStillDeciding(server: AdversarialServer, tenant: Tenant, label: string, count = 6): Promise<CheckpointObservation[]> {
  const observations = await observeCheckpoints(server, tenant, count);
  const slowest = Math.max(...observations.map((observation) => observation.elapsedMs));
  process.stdout.write(`adversarial: ${label}: the ${tenant.role}'s ${observations.length} checkpoints, slowest ${slowest} ms\n`);
  expect(problemsWith(observations)).toEqual([]);
  return observations;
}
