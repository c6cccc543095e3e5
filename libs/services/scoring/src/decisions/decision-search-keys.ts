import { Inject, Injectable } from '@nestjs/common';
import type { ReadDependency } from '@ringfence/bus';
import { type CheckpointScoredEvent, DECISION_TOPICS, type PaymentMethodFacts, type WireObject, payloadFacts } from '@ringfence/contracts';
import { isRowRefusal } from '@ringfence/persistence';
import { PendingRows, type RowWriter, SetAsideRows } from '@ringfence/platform';
import { DECISION_SEARCH_KEY_STORE, type DecisionSearchKeyRow, type DecisionSearchKeyStore } from '@ringfence/scoring-store';

/** The writer's name in set-aside rows, metrics and logs. */
export const DECISION_SEARCH_KEYS_WRITER = 'decision-search-keys';

const rowKey = (row: DecisionSearchKeyRow) => JSON.stringify([row.accountId, row.environment, row.keyKind, row.keyValue, row.subjectKind, row.subjectId]);

/** The consumer group that keeps the search keys of decisions. */
export const DECISION_SEARCH_KEYS_GROUP = 'scoring-search-keys';

/** What a search waits for: every decision published before it has its keys. */
export const DECISION_SEARCH_KEYS_DEPENDENCY: ReadDependency = { group: DECISION_SEARCH_KEYS_GROUP, topics: DECISION_TOPICS };

/** A card as search shows and matches it: `BIN…last4` (never more of the number). */
export const cardSearchValue = (bin: string, lastFour: string): string => `${bin}…${lastFour}`;

/** An IP address as searched: trimmed, lower-cased (IPv6 hex digits). */
export const ipSearchValue = (address: string): string => address.trim().toLowerCase();

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** A card's BIN and last four as the payment-method shapes carry them (`cardBin`/`cardLastFour`, a PSP card's `iin`/`lastFour`), as `BIN…last4`. */
function cardOf(method: PaymentMethodFacts): string | undefined {
  const bin = text(method.fields.cardBin) ?? text(method.fields.iin);
  const lastFour = text(method.fields.cardLastFour) ?? text(method.fields.lastFour);
  return bin !== undefined && lastFour !== undefined && /^[0-9]{4,8}$/.test(bin) && /^[0-9]{4}$/.test(lastFour) ? cardSearchValue(bin, lastFour) : undefined;
}

/**
 * The search keys of one decision (ADR-0014): the IP address of the device its payload names,
 * and every card (BIN…last4) it carries, each with the subject decided about. What the graph
 * keeps as nodes (ids, e-mail, phone, device, instrument) is searched there instead. A card with
 * an instrument id also gets the row instrument → card, so a network can show the graph's card
 * node (keyed by instrument) as BIN…last4.
 */
export function decisionSearchKeys(tenant: { accountId: string; environment: string }, event: CheckpointScoredEvent): DecisionSearchKeyRow[] {
  const payload = event.context?.payload;
  if (event.subject === undefined || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return [];
  const facts = payloadFacts(payload as WireObject);
  const subject = event.subject;
  const keys = new Map<string, DecisionSearchKeyRow>();
  const add = (keyKind: string, keyValue: string | undefined, subjectKind: DecisionSearchKeyRow['subjectKind'], subjectId: string) => {
    if (keyValue === undefined || keyValue.includes('\u0000') || subjectId.includes('\u0000')) return;
    keys.set(JSON.stringify([keyKind, keyValue, subjectKind, subjectId]), { ...tenant, keyKind, keyValue, subjectKind, subjectId });
  };
  add('ip', facts.device.ipAddress === undefined ? undefined : ipSearchValue(facts.device.ipAddress), subject.kind, subject.id);
  for (const method of [...(facts.paymentMethod ? [facts.paymentMethod] : []), ...facts.paymentMethods, ...facts.connectCards]) {
    const card = cardOf(method);
    add('card', card, subject.kind, subject.id);
    if (card !== undefined && method.instrumentId !== undefined) add('instrument', method.instrumentId, 'card', card);
  }
  return [...keys.values()];
}

/**
 * The search keys of decisions, written behind like the decision records: the consumer of the
 * decision topics adds each decision's keys, `flush` (the bus's beforeCommit) writes them in one
 * statement, and a search flushes first, so it finds every decision its barrier waited for.
 * A row the store refuses never holds up the others (ADR-0016): `RowWriter` writes the rest and,
 * after its attempts, sets it aside (writer `decision-search-keys`).
 */
@Injectable()
export class DecisionSearchKeys {
  private readonly pending: PendingRows<DecisionSearchKeyRow>;
  private readonly writer: RowWriter<DecisionSearchKeyRow>;

  constructor(
    @Inject(DECISION_SEARCH_KEY_STORE) private readonly store: DecisionSearchKeyStore,
    setAside: SetAsideRows,
  ) {
    this.writer = setAside.writer<DecisionSearchKeyRow>(
      {
        name: DECISION_SEARCH_KEYS_WRITER,
        writeAll: (batch) => store.addAll(batch),
        identify: (row) => ({ accountId: row.accountId, environment: row.environment, key: rowKey(row) }),
        isUnavailable: (error) => !isRowRefusal(error),
      },
      async (row) => {
        this.add([row as DecisionSearchKeyRow]);
        await this.flush();
      },
    );
    this.pending = new PendingRows(rowKey, (batch) => this.writer.write(batch));
  }

  add(rows: readonly DecisionSearchKeyRow[]): void {
    for (const row of rows) this.pending.add(row);
  }

  async subjects(tenant: { accountId: string; environment: string }, keyKind: string, keyValue: string, limit: number) {
    await this.flush();
    return this.store.subjects(tenant, keyKind, keyValue, limit);
  }

  async cardsOfInstruments(tenant: { accountId: string; environment: string }, instrumentIds: readonly string[]): Promise<Array<string | null>> {
    await this.flush();
    return this.store.cardsOfInstruments(tenant, instrumentIds);
  }

  /** Flushes run one after another; rows neither written nor set aside go back for the next. */
  flush(): Promise<void> {
    return this.pending.flush();
  }
}
