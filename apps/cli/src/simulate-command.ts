import {
  CARD_FRAUD_PATTERNS,
  type CardFraudPattern,
  CardPaymentsSimulation,
  DEFAULT_CARD_PAYMENTS_OPTIONS,
  DEFAULT_SIMULATION_OPTIONS,
  FRAUD_KINDS,
  type FraudKind,
  type SimulationOptions,
  type TrafficRecord,
  TrafficSimulation,
} from '@ringfence/simulator';
import type { Command } from 'commander';
import { type SendOptions, addSendOptions, interruptions, senderFor } from './import-command';
import { JsonLinesWriter, progressBar } from './traffic-files';
import { type ApiConnection, TrafficSendError, type TrafficLine, type TrafficSender } from './traffic-sender';

const SCENARIOS = ['marketplace', 'card-payments'] as const;
type Scenario = (typeof SCENARIOS)[number];

interface SimulateOptions extends SendOptions {
  scenario: string;
  seed: string;
  // No commander defaults for these: each scenario has its own (filled in by the simulators).
  customers?: string;
  days?: string;
  fraudRate?: string;
  start: string;
  settleDays: string;
  fraudMix?: string;
  terminals?: string;
  paymentsPerDay?: string;
  disputeDelayDays?: string;
  out: string;
  truth?: string;
  send: boolean;
  sdkTraffic: boolean;
}

const HOUR_MS = 3_600_000;

/**
 * A simulation as the command drives it, whichever the scenario: its records, its truth, its
 * counts, and the span of event time its records cover (for the progress bar).
 */
interface Simulation {
  records(): Generator<TrafficRecord>;
  truth(): unknown[];
  stats(): object;
  start: number;
  spanHours: number;
}

/**
 * `stolen-card=10,account-takeover=40`: the whole mix (kinds not named are not planted); throws on
 * a kind or a weight it cannot read. The kinds are the marketplace's, or those given (the card
 * payments' patterns).
 */
export function parseFraudMix<Kind extends string = FraudKind>(text: string, kinds: readonly Kind[] = FRAUD_KINDS as unknown as readonly Kind[]): Partial<Record<Kind, number>> {
  const mix: Partial<Record<Kind, number>> = {};
  for (const part of text.split(',').map((item) => item.trim()).filter((item) => item !== '')) {
    const [kind = '', weightText, ...rest] = part.split('=').map((item) => item.trim());
    if (weightText === undefined || weightText === '' || rest.length > 0) throw new Error(`--fraud-mix: "${part}" is not kind=weight`);
    if (!(kinds as readonly string[]).includes(kind)) throw new Error(`--fraud-mix: unknown fraud kind "${kind}"; the kinds are ${kinds.join(', ')}`);
    const weight = Number(weightText);
    if (!Number.isFinite(weight) || weight < 0) throw new Error(`--fraud-mix: the weight of ${kind} must be a number from 0 up (got "${weightText}")`);
    if (kind in mix) throw new Error(`--fraud-mix: ${kind} is given twice`);
    mix[kind as Kind] = weight;
  }
  if (Object.keys(mix).length === 0) throw new Error('--fraud-mix: give at least one kind=weight');
  return mix;
}

const numberOrUndefined = (text: string | undefined) => (text === undefined ? undefined : Number(text));

function simulationFrom(command: Command, options: SimulateOptions): Simulation {
  if (!(SCENARIOS as readonly string[]).includes(options.scenario)) command.error(`--scenario must be one of ${SCENARIOS.join(', ')} (got ${options.scenario})`);
  const scenario = options.scenario as Scenario;
  if (scenario === 'marketplace') {
    const cardOnly = [options.terminals && '--terminals', options.paymentsPerDay && '--payments-per-day', options.disputeDelayDays && '--dispute-delay-days'].filter(Boolean);
    if (cardOnly.length > 0) command.error(`${cardOnly.join(', ')}: only with --scenario card-payments`);
  }
  const start = Date.parse(options.start);
  if (!Number.isFinite(start)) command.error(`--start must be an ISO 8601 time, e.g. 2026-01-05T00:00:00Z (got ${options.start})`);
  try {
    if (scenario === 'card-payments') {
      const fraudMix = options.fraudMix === undefined ? undefined : parseFraudMix<CardFraudPattern>(options.fraudMix, CARD_FRAUD_PATTERNS);
      const simulation = new CardPaymentsSimulation({
        seed: options.seed,
        customers: numberOrUndefined(options.customers),
        terminals: numberOrUndefined(options.terminals),
        days: numberOrUndefined(options.days),
        paymentsPerDay: numberOrUndefined(options.paymentsPerDay),
        fraudRate: numberOrUndefined(options.fraudRate),
        disputeDelayDays: numberOrUndefined(options.disputeDelayDays),
        start,
        fraudMix,
      });
      const { days, disputeDelayDays } = simulation.options;
      return { records: () => simulation.records(), truth: () => simulation.truth(), stats: () => simulation.stats(), start, spanHours: Math.ceil((days + disputeDelayDays) * 24) };
    }
    const fraudMix: SimulationOptions['fraudMix'] | undefined = options.fraudMix === undefined ? undefined : parseFraudMix(options.fraudMix);
    const simulation = new TrafficSimulation({
      seed: options.seed,
      customers: numberOrUndefined(options.customers),
      days: numberOrUndefined(options.days),
      fraudRate: numberOrUndefined(options.fraudRate),
      start,
      settleDays: Number(options.settleDays),
      fraudMix,
      sdkTraffic: options.sdkTraffic,
    });
    const { days, settleDays } = simulation.options;
    return { records: () => simulation.records(), truth: () => simulation.truth(), stats: () => simulation.stats(), start, spanHours: Math.ceil((days + settleDays) * 24) };
  } catch (error) {
    return command.error(`${error instanceof Error ? error.message : String(error)}`);
  }
}

export function registerSimulateCommand(program: Command, connection: () => ApiConnection): void {
  simulateCommand(program).action(async (options: SimulateOptions, command: Command) => {
    const simulation = simulationFrom(command, options);
    const { start, spanHours } = simulation;
    const bar = progressBar('simulated {day} {bar} {percentage}% | {records} requests | {rate} req/s');
    bar.start(spanHours, 0, { day: new Date(start).toISOString().slice(0, 10), records: 0, rate: 0 });
    const progress: Progress = (record, records, rate) => bar.update(Math.floor((record.time - start) / HOUR_MS), { day: new Date(record.time).toISOString().slice(0, 10), records, rate });
    let summary: Record<string, unknown>;
    if (options.send) {
      const sender = senderFor(command, connection(), options);
      try {
        summary = await sendSimulation(simulation, sender, progress);
      } catch (error) {
        bar.stop();
        if (error instanceof TrafficSendError) command.error(`ringfence: ${error.message}`);
        throw error;
      }
    } else {
      summary = await writeSimulation(simulation, options.out, progress);
    }
    bar.update(spanHours, { records: (simulation.stats() as { records: number }).records });
    bar.stop();
    if (options.truth) {
      const truth = new JsonLinesWriter(options.truth);
      for (const actor of simulation.truth()) await truth.write(actor);
      await truth.close();
    }
    // The summary goes where the records do not.
    const text = `${JSON.stringify(summary, null, 2)}\n`;
    if (!options.send && options.out === '-') process.stderr.write(text);
    else process.stdout.write(text);
  });
}

/** Moves the progress bar to a record, with the records so far and their rate. */
type Progress = (record: TrafficRecord, records: number, rate: number) => void;

/** Sends the simulated requests as they are generated; stops (keeping what was answered) on Ctrl-C. */
async function sendSimulation(simulation: Simulation, sender: TrafficSender, progress: Progress): Promise<Record<string, unknown>> {
  const signals = interruptions();
  let line = 0;
  let latest: TrafficRecord | undefined;
  const lines = function* (): Generator<TrafficLine> {
    for (const record of simulation.records()) {
      line += 1;
      latest = record;
      yield { line, request: record };
    }
  };
  try {
    const sent = await sender.send(lines(), {
      shouldStop: signals.stopped,
      onAnswered: (_through, running) => {
        if (latest) progress(latest, running.sent, running.requestsPerSecond);
      },
    });
    return { ...sent, generated: simulation.stats() };
  } finally {
    signals.dispose();
    sender.close();
  }
}

async function writeSimulation(simulation: Simulation, out: string, progress: Progress): Promise<Record<string, unknown>> {
  const writer = new JsonLinesWriter(out);
  const startedAt = Date.now();
  let records = 0;
  for (const record of simulation.records()) {
    await writer.write(record);
    records += 1;
    if (records % 2000 === 0) progress(record, records, Math.round(records / Math.max(0.001, (Date.now() - startedAt) / 1000)));
  }
  await writer.close();
  return { ...simulation.stats(), elapsedSeconds: (Date.now() - startedAt) / 1000, out };
}

/** `ringfence simulate` and its options. */
function simulateCommand(program: Command): Command {
  return addSendOptions(
    program
      .command('simulate')
      .description(
        "generate a marketplace's (or card payments') traffic with planted fraud (seeded): write it as JSON Lines (`ringfence import` reads them), or --send it to a running server",
      )
      .option('--scenario <name>', `what to simulate: ${SCENARIOS.join(' or ')} (card payments at terminals, with the textbook fraud patterns; libs/simulator/README.md)`, 'marketplace')
      .option('--seed <seed>', 'the same seed gives the same traffic', '1')
      .option('--customers <count>', `customers, fraudulent ones included (default: ${DEFAULT_SIMULATION_OPTIONS.customers}; card-payments: ${DEFAULT_CARD_PAYMENTS_OPTIONS.customers}, one card each)`)
      .option('--days <days>', `days of traffic (default: ${DEFAULT_SIMULATION_OPTIONS.days}; card-payments: ${DEFAULT_CARD_PAYMENTS_OPTIONS.days})`)
      .option('--fraud-rate <share>', `share of the customers that are fraudulent (default: ${DEFAULT_SIMULATION_OPTIONS.fraudRate}); card-payments: share of the payments (default: ${DEFAULT_CARD_PAYMENTS_OPTIONS.fraudRate})`)
      .option('--start <ISO time>', 'event time of the first day', '2026-01-05T00:00:00Z')
      .option('--settle-days <days>', 'marketplace: days after the traffic during which chargebacks and labels still come (card-payments: every dispute is written)', '45')
      .option(
        '--fraud-mix <kind=weight,…>',
        `relative weights of the fraud kinds, e.g. stolen-card=10,account-takeover=40; kinds not named are not planted (kinds: ${FRAUD_KINDS.join(', ')}; card-payments: ${CARD_FRAUD_PATTERNS.join(', ')}; default: the README's mix)`,
      )
      .option('--terminals <count>', `card-payments: terminals (merchants) on the grid (default: ${DEFAULT_CARD_PAYMENTS_OPTIONS.terminals})`)
      .option('--payments-per-day <mean>', `card-payments: mean payments a day of a customer (default: ${DEFAULT_CARD_PAYMENTS_OPTIONS.paymentsPerDay})`)
      .option('--dispute-delay-days <days>', `card-payments: days from a fraudulent payment to its dispute (default: ${DEFAULT_CARD_PAYMENTS_OPTIONS.disputeDelayDays})`)
      .option('--out <file|->', 'where the JSON Lines go (`-`: standard output; gzip when the name ends in .gz)', '-')
      .option('--truth <file>', 'write the ground truth there: one JSON line per fraudulent actor (card-payments: per fraudulent payment)')
      .option('--send', 'send the requests to the server (--url, --key) instead of writing them', false)
      .option('--no-sdk-traffic', "marketplace: no client SDK events (POST /v2/client/events) before the payments; the other records stay the same")
  );
}
