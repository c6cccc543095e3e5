import type { TransactionGate } from './transaction-gate';
import type { GrafeoDB, QueryResult, Transaction } from '@grafeo-db/js';
import { BoltClientError, type BoltFailure, NEO4J_CODE, toBoltFailure } from './bolt-failures';
import { toGrafeoParameters } from './grafeo-values';
import { BoltStructure, type PackStreamMap, type PackStreamValue } from './packstream';
import { ResultCursor } from './result-cursor';

/**
 * The Bolt 5.4 server state machine of one connection
 * (https://neo4j.com/docs/bolt/current/bolt/server-state/), over one Grafeo database.
 *
 * Queries run when RUN arrives (Grafeo has no lazy execution), so their errors come back on
 * RUN; the rows wait in a cursor for PULL. Explicit transactions are Grafeo transactions
 * (snapshot isolation, read-your-writes, real rollback).
 */

export const REQUEST = {
  HELLO: 0x01,
  GOODBYE: 0x02,
  RESET: 0x0f,
  RUN: 0x10,
  BEGIN: 0x11,
  COMMIT: 0x12,
  ROLLBACK: 0x13,
  DISCARD: 0x2f,
  PULL: 0x3f,
  TELEMETRY: 0x54,
  ROUTE: 0x66,
  LOGON: 0x6a,
  LOGOFF: 0x6b,
} as const;

/** Where the session's answers go; the connection frames them and minds the socket. */
export interface ResponseChannel {
  success(metadata: PackStreamMap): void;
  record(values: PackStreamValue[]): void;
  failure(failure: BoltFailure): void;
  ignored(): void;
  /** Bytes answered but not yet handed to the socket. */
  readonly bufferedBytes: number;
  /** False once the client is gone: a long PULL stops early. */
  readonly isOpen: boolean;
  /** Hands the answers to the socket; settles once the socket takes more (or is gone). */
  flush(): Promise<void>;
  /** Sends what is buffered, then ends the connection. */
  close(): void;
}

export interface SessionIdentity {
  connectionId: string;
  /** host:port as the client reached this server: the only entry of the routing table. */
  advertisedAddress: string;
}

/** The one database this server has; also the answer when the driver asks for its home database. */
export const DATABASE_NAME = 'neo4j';
const SERVER_AGENT = 'Neo4j/5.26.0';
const ROUTING_TABLE_TTL_SECONDS = 300n;
/** A PULL of many rows goes out in pieces of about this size, waiting for the socket between. */
const FLUSH_THRESHOLD_BYTES = 64 * 1024;

type Phase = 'awaiting-hello' | 'awaiting-logon' | 'ready' | 'failed' | 'closed';

interface OpenTransaction {
  grafeo: Transaction;
  /** Releases the server's transaction gate. */
  release: () => void;
  readOnly: boolean;
  cursors: Map<number, ResultCursor>;
  nextQueryId: number;
  lastQueryId: number;
}

export class BoltSession {
  private phase: Phase = 'awaiting-hello';
  private autoCommitResult: ResultCursor | null = null;
  private transaction: OpenTransaction | null = null;

  constructor(
    private readonly database: GrafeoDB,
    private readonly responses: ResponseChannel,
    private readonly identity: SessionIdentity,
    private readonly gate: TransactionGate,
  ) {}

  /** Answers one request message. Never throws: a failure is an answer too. */
  async handle(message: BoltStructure): Promise<void> {
    if (this.phase === 'closed') return;
    if (message.signature === REQUEST.GOODBYE) {
      this.dispose();
      this.responses.close();
      return;
    }
    if (this.phase === 'failed' && message.signature !== REQUEST.RESET) {
      this.responses.ignored();
      return;
    }
    try {
      await this.dispatch(message.signature, message.fields);
    } catch (error) {
      this.fail(toBoltFailure(error));
    }
  }

  /** The connection is gone: what was open is rolled back. */
  dispose(): void {
    this.closeTransaction('rollback');
    this.autoCommitResult = null;
    this.phase = 'closed';
  }

  private async dispatch(signature: number, fields: readonly PackStreamValue[]): Promise<void> {
    switch (signature) {
      case REQUEST.HELLO:
        return this.hello();
      case REQUEST.LOGON:
        return this.logon(mapField(fields, 0));
      case REQUEST.LOGOFF:
        return this.logoff();
      case REQUEST.TELEMETRY:
        return this.telemetry();
      case REQUEST.ROUTE:
        return this.route(mapField(fields, 2));
      case REQUEST.RESET:
        return this.reset();
      case REQUEST.RUN:
        return this.run(stringField(fields, 0), mapField(fields, 1), mapField(fields, 2));
      case REQUEST.PULL:
        return this.pull(mapField(fields, 0));
      case REQUEST.DISCARD:
        return this.discard(mapField(fields, 0));
      case REQUEST.BEGIN:
        return this.begin(mapField(fields, 0));
      case REQUEST.COMMIT:
        return this.commit();
      case REQUEST.ROLLBACK:
        return this.rollback();
      default:
        throw invalidRequest(`unknown message 0x${signature.toString(16)}`);
    }
  }

  private hello(): void {
    if (this.phase !== 'awaiting-hello') throw invalidRequest('HELLO was already received');
    this.phase = 'awaiting-logon';
    this.responses.success({
      server: SERVER_AGENT,
      connection_id: this.identity.connectionId,
      // Makes the driver send TELEMETRY, as it does to a real Neo4j.
      hints: { 'telemetry.enabled': true },
    });
  }

  /** Any credentials are welcome: the server is for tests on loopback. */
  private logon(auth: PackStreamMap): void {
    if (this.phase !== 'awaiting-logon') throw invalidRequest('LOGON is only valid after HELLO or LOGOFF');
    if (typeof auth.scheme !== 'string') throw invalidRequest('LOGON needs an auth scheme');
    this.phase = 'ready';
    this.responses.success({});
  }

  /** Usage statistics for Neo4j's own analytics: acknowledged and forgotten. */
  private telemetry(): void {
    this.requireReady();
    this.responses.success({});
  }

  private logoff(): void {
    this.requireIdle('LOGOFF');
    this.phase = 'awaiting-logon';
    this.responses.success({});
  }

  private route(extra: PackStreamMap): void {
    this.requireReady();
    checkDatabase(extra.db);
    const addresses = [this.identity.advertisedAddress];
    this.responses.success({
      rt: {
        ttl: ROUTING_TABLE_TTL_SECONDS,
        db: DATABASE_NAME,
        servers: [
          { addresses, role: 'WRITE' },
          { addresses, role: 'READ' },
          { addresses, role: 'ROUTE' },
        ],
      },
    });
  }

  private reset(): void {
    if (this.phase !== 'ready' && this.phase !== 'failed') throw invalidRequest('RESET before authentication');
    this.closeTransaction('rollback');
    this.autoCommitResult = null;
    this.phase = 'ready';
    this.responses.success({});
  }

  private async run(query: string, parameters: PackStreamMap, extra: PackStreamMap): Promise<void> {
    this.requireReady();
    const startedAt = Date.now();
    if (this.transaction) {
      const transaction = this.transaction;
      const cursor = await this.execute(transaction.grafeo, query, parameters, transaction.readOnly);
      const queryId = transaction.nextQueryId++;
      transaction.cursors.set(queryId, cursor);
      transaction.lastQueryId = queryId;
      this.responses.success({ fields: cursor.fields, t_first: BigInt(Date.now() - startedAt), qid: BigInt(queryId) });
      return;
    }
    if (this.autoCommitResult) throw invalidRequest('RUN while the previous result is open: PULL or DISCARD it first');
    checkDatabase(extra.db);
    this.autoCommitResult = await this.executeAutoCommit(query, parameters, extra.mode === 'r');
    this.responses.success({ fields: this.autoCommitResult.fields, t_first: BigInt(Date.now() - startedAt) });
  }

  /** A read-mode auto-commit query runs in a transaction, so a write in it can be undone. */
  private async executeAutoCommit(query: string, parameters: PackStreamMap, readOnly: boolean): Promise<ResultCursor> {
    const release = await this.gate.acquire();
    try {
      if (!readOnly) return await this.execute(this.database, query, parameters, false);
      const transaction = this.database.beginTransaction();
      try {
        const cursor = await this.execute(transaction, query, parameters, true);
        transaction.commit();
        return cursor;
      } finally {
        if (transaction.isActive) transaction.rollback();
      }
    } finally {
      release();
    }
  }

  private async execute(target: GrafeoDB | Transaction, query: string, parameters: PackStreamMap, readOnly: boolean): Promise<ResultCursor> {
    const result: QueryResult = await target.executeCypher(query, toGrafeoParameters(parameters));
    const cursor = new ResultCursor(result);
    // Neo4j refuses writes in a read transaction; so does this server, after the fact.
    if (readOnly && cursor.wroteData) throw new BoltClientError(NEO4J_CODE.ACCESS_MODE, 'Writing in read access mode not allowed.');
    return cursor;
  }

  private async pull(extra: PackStreamMap): Promise<void> {
    const { cursor, queryId } = this.cursorFor(extra.qid);
    const limit = integerField(extra.n, -1);
    let sent = 0;
    while (cursor.hasMore && (limit < 0 || sent < limit) && this.responses.isOpen) {
      this.responses.record(cursor.nextRecord());
      sent++;
      if (this.responses.bufferedBytes >= FLUSH_THRESHOLD_BYTES) await this.responses.flush();
    }
    this.endOfBatch(cursor, queryId);
  }

  private discard(extra: PackStreamMap): void {
    const { cursor, queryId } = this.cursorFor(extra.qid);
    const limit = integerField(extra.n, -1);
    cursor.skip(limit < 0 ? Number.POSITIVE_INFINITY : limit);
    this.endOfBatch(cursor, queryId);
  }

  private endOfBatch(cursor: ResultCursor, queryId: number | null): void {
    if (cursor.hasMore) {
      this.responses.success({ has_more: true });
      return;
    }
    const summary: Record<string, PackStreamValue> = { type: cursor.wroteData ? 'rw' : 'r', t_last: 0n, db: DATABASE_NAME };
    if (cursor.wroteData) summary.stats = cursor.statistics();
    if (queryId === null) {
      this.autoCommitResult = null;
      summary.bookmark = this.bookmark();
    } else {
      this.transaction?.cursors.delete(queryId);
    }
    this.responses.success(summary);
  }

  /** The open result a PULL or DISCARD means: qid -1 (or none) is the last one. */
  private cursorFor(qidField: PackStreamValue | undefined): { cursor: ResultCursor; queryId: number | null } {
    this.requireReady();
    if (!this.transaction) {
      if (!this.autoCommitResult) throw invalidRequest('no open result to PULL or DISCARD');
      return { cursor: this.autoCommitResult, queryId: null };
    }
    const requested = integerField(qidField, -1);
    const queryId = requested === -1 ? this.transaction.lastQueryId : requested;
    const cursor = this.transaction.cursors.get(queryId);
    if (!cursor) throw invalidRequest(`no open result with qid ${requested}`);
    return { cursor, queryId };
  }

  private async begin(extra: PackStreamMap): Promise<void> {
    this.requireIdle('BEGIN');
    checkDatabase(extra.db);
    const release = await this.gate.acquire();
    try {
      this.transaction = { grafeo: this.database.beginTransaction(), release, readOnly: extra.mode === 'r', cursors: new Map(), nextQueryId: 0, lastQueryId: -1 };
    } catch (error) {
      release();
      throw error;
    }
    this.responses.success({});
  }

  /** Results left unread are dropped, as a driver's commit would have discarded them. */
  private commit(): void {
    this.requireTransaction('COMMIT');
    this.closeTransaction('commit');
    this.responses.success({ bookmark: this.bookmark() });
  }

  private rollback(): void {
    this.requireTransaction('ROLLBACK');
    this.closeTransaction('rollback');
    this.responses.success({});
  }

  /** Ends the open transaction, if any; it is gone afterwards even when its commit fails. */
  private closeTransaction(outcome: 'commit' | 'rollback'): void {
    const open = this.transaction;
    this.transaction = null;
    if (open === null) return;
    const transaction = open.grafeo;
    try {
      if (!transaction.isActive) return;
      try {
        if (outcome === 'commit') transaction.commit();
        else transaction.rollback();
      } finally {
        if (transaction.isActive) transaction.rollback();
      }
    } finally {
      open.release();
    }
  }

  /** A failed request ends the transaction and the result it was part of, as in Neo4j. */
  private fail(failure: BoltFailure): void {
    const authenticated = this.phase === 'ready';
    this.closeTransaction('rollback');
    this.autoCommitResult = null;
    this.responses.failure(failure);
    if (authenticated) {
      this.phase = 'failed';
    } else {
      // Neo4j hangs up on a connection that fails before it is authenticated.
      this.dispose();
      this.responses.close();
    }
  }

  private bookmark(): string {
    return `grafeo:${this.database.currentEpoch()}`;
  }

  private requireReady(): void {
    if (this.phase !== 'ready') throw invalidRequest('the connection is not authenticated');
  }

  /** READY in Bolt's terms: authenticated, no transaction, no open result. */
  private requireIdle(message: string): void {
    this.requireReady();
    if (this.transaction || this.autoCommitResult) throw invalidRequest(`${message} while a transaction or a result is open`);
  }

  private requireTransaction(message: string): void {
    this.requireReady();
    if (!this.transaction) throw invalidRequest(`${message} without a transaction`);
  }
}

function invalidRequest(message: string): BoltClientError {
  return new BoltClientError(NEO4J_CODE.REQUEST_INVALID, message);
}

function checkDatabase(name: PackStreamValue | undefined): void {
  if (name === undefined || name === null || name === DATABASE_NAME) return;
  throw new BoltClientError(NEO4J_CODE.DATABASE_NOT_FOUND, `Database does not exist. Database name: '${String(name)}'.`);
}

function mapField(fields: readonly PackStreamValue[], index: number): PackStreamMap {
  const field = fields[index];
  if (field === undefined || field === null) return {};
  if (typeof field !== 'object' || Array.isArray(field) || field instanceof Uint8Array || field instanceof BoltStructure) {
    throw invalidRequest(`field ${index} of the message is not a map`);
  }
  return field as PackStreamMap;
}

function stringField(fields: readonly PackStreamValue[], index: number): string {
  const field = fields[index];
  if (typeof field !== 'string') throw invalidRequest(`field ${index} of the message is not a string`);
  return field;
}

function integerField(value: PackStreamValue | undefined, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'bigint') throw invalidRequest('expected an integer');
  return Number(value);
}
