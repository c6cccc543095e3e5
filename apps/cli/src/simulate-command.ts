import { FRAUD_KINDS, type FraudKind, type SimulationOptions, type TrafficRecord, TrafficSimulation } from '@ringfence/simulator';
import type { Command } from 'commander';
import { type SendOptions, addSendOptions, interruptions, senderFor } from './import-command';
import { JsonLinesWriter, progressBar } from './traffic-files';
import { type ApiConnection, TrafficSendError, type TrafficLine } from './traffic-sender';

interface SimulateOptions extends SendOptions {
  seed: string;
  customers: string;
  days: string;
  fraudRate: string;
  start: string;
  settleDays: string;
  fraudMix?: string;
  out: string;
  truth?: string;
  send: boolean;
}

const HOUR_MS = 3_600_000;

/** `stolen-card=10,account-takeover=40`: the whole mix (kinds not named are not planted); throws on a kind or a weight it cannot read. */
export function parseFraudMix(text: string): Partial<Record<FraudKind, number>> {
  const mix: Partial<Record<FraudKind, number>> = {};
  for (const part of text.split(',').map((item) => item.trim()).filter((item) => item !== '')) {
    const [kind = '', weightText, ...rest] = part.split('=').map((item) => item.trim());
    if (weightText === undefined || weightText === '' || rest.length > 0) throw new Error(`--fraud-mix: "${part}" is not kind=weight`);
    if (!(FRAUD_KINDS as readonly string[]).includes(kind)) throw new Error(`--fraud-mix: unknown fraud kind "${kind}"; the kinds are ${FRAUD_KINDS.join(', ')}`);
    const weight = Number(weightText);
    if (!Number.isFinite(weight) || weight < 0) throw new Error(`--fraud-mix: the weight of ${kind} must be a number from 0 up (got "${weightText}")`);
    if (kind in mix) throw new Error(`--fraud-mix: ${kind} is given twice`);
    mix[kind as FraudKind] = weight;
  }
  if (Object.keys(mix).length === 0) throw new Error('--fraud-mix: give at least one kind=weight');
  return mix;
}

function simulationFrom(command: Command, options: SimulateOptions): TrafficSimulation {
  const start = Date.parse(options.start);
  if (!Number.isFinite(start)) command.error(`--start must be an ISO 8601 time, e.g. 2026-01-05T00:00:00Z (got ${options.start})`);
  let fraudMix: SimulationOptions['fraudMix'] | undefined;
  try {
    fraudMix = options.fraudMix === undefined ? undefined : parseFraudMix(options.fraudMix);
  } catch (error) {
    command.error(error instanceof Error ? error.message : String(error));
  }
  const partial: Partial<SimulationOptions> = {
    seed: options.seed,
    customers: Number(options.customers),
    days: Number(options.days),
    fraudRate: Number(options.fraudRate),
    start,
    settleDays: Number(options.settleDays),
    fraudMix,
  };
  try {
    return new TrafficSimulation(partial);
  } catch (error) {
    return command.error(`${error instanceof Error ? error.message : String(error)}`);
  }
}

export function registerSimulateCommand(program: Command, connection: () => ApiConnection): void {
  addSendOptions(
    program
      .command('simulate')
      .description(
        "generate a marketplace's traffic with planted fraud (seeded): write it as JSON Lines (`ringfence import` reads them), or --send it to a running server",
      )
      .option('--seed <seed>', 'the same seed gives the same traffic', '1')
      .option('--customers <count>', 'customer accounts, fraudulent ones included', '1000')
      .option('--days <days>', 'days of traffic', '28')
      .option('--fraud-rate <share>', 'share of the customers that are fraudulent', '0.02')
      .option('--start <ISO time>', 'event time of the first day', '2026-01-05T00:00:00Z')
      .option('--settle-days <days>', 'days after the traffic during which chargebacks and labels still come', '45')
      .option('--fraud-mix <kind=weight,…>', `relative weights of the fraud kinds, e.g. stolen-card=10,account-takeover=40; kinds not named are not planted (kinds: ${FRAUD_KINDS.join(', ')}; default: the README's mix)`)
      .option('--out <file|->', 'where the JSON Lines go (`-`: standard output; gzip when the name ends in .gz)', '-')
      .option('--truth <file>', 'write the ground truth there: one JSON line per fraudulent actor')
      .option('--send', 'send the requests to the server (--url, --key) instead of writing them', false),
  ).action(async (options: SimulateOptions, command: Command) => {
    const simulation = simulationFrom(command, options);
    const { start, days, settleDays } = simulation.options;
    const bar = progressBar('simulated {day} {bar} {percentage}% | {records} requests | {rate} req/s');
    bar.start(Math.ceil((days + settleDays) * 24), 0, { day: new Date(start).toISOString().slice(0, 10), records: 0, rate: 0 });
    const progress = (record: TrafficRecord, records: number, rate: number) =>
      bar.update(Math.floor((record.time - start) / HOUR_MS), { day: new Date(record.time).toISOString().slice(0, 10), records, rate });

    let summary: Record<string, unknown>;
    if (options.send) {
      const sender = senderFor(command, connection(), options);
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
        summary = { ...sent, generated: simulation.stats() };
      } catch (error) {
        bar.stop();
        if (error instanceof TrafficSendError) command.error(`ringfence: ${error.message}`);
        throw error;
      } finally {
        signals.dispose();
        sender.close();
      }
    } else {
      const writer = new JsonLinesWriter(options.out);
      const startedAt = Date.now();
      let records = 0;
      for (const record of simulation.records()) {
        await writer.write(record);
        records += 1;
        if (records % 2000 === 0) progress(record, records, Math.round(records / Math.max(0.001, (Date.now() - startedAt) / 1000)));
      }
      await writer.close();
      summary = { ...simulation.stats(), elapsedSeconds: (Date.now() - startedAt) / 1000, out: options.out };
    }
    bar.update(Math.ceil((days + settleDays) * 24), { records: simulation.stats().records });
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
