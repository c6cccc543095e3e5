import type { TransactionGate } from './transaction-gate';
import type { Socket } from 'node:net';
import type { GrafeoDB } from '@grafeo-db/js';
import type { BoltFailure } from './bolt-failures';
import { BoltSession, type ResponseChannel } from './bolt-session';
import { answerHandshake, PREAMBLE_LENGTH, readManifestChoice } from './handshake';
import { MessageDechunker, OutgoingMessages } from './message-framing';
import { BoltStructure, decodePackStream, type PackStreamMap, type PackStreamValue } from './packstream';

const RESPONSE = {
  SUCCESS: 0x70,
  RECORD: 0x71,
  IGNORED: 0x7e,
  FAILURE: 0x7f,
} as const;

type Stage = 'handshake' | 'manifest-choice' | 'messages';

/**
 * One client socket: the handshake, then request messages handled strictly one after another
 * (a driver pipelines them, and their answers must keep that order), with answers written as
 * the socket can take them.
 */
export class BoltConnection implements ResponseChannel {
  /** Settles once the socket is closed and what the session had open is rolled back. */
  readonly closed: Promise<void>;
  private stage: Stage = 'handshake';
  private handshakeBytes = Buffer.alloc(0);
  private readonly dechunker = new MessageDechunker();
  private readonly outgoing = new OutgoingMessages();
  private readonly session: BoltSession;
  private work: Promise<void> = Promise.resolve();
  private open = true;

  constructor(
    private readonly socket: Socket,
    database: GrafeoDB,
    connectionId: string,
    gate: TransactionGate,
  ) {
    this.session = new BoltSession(database, this, { connectionId, advertisedAddress: formatAddress(socket.localAddress, socket.localPort) }, gate);
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.receive(data));
    // A client that vanishes shows up as an error; 'close' follows and cleans up.
    socket.on('error', () => socket.destroy());
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.open = false;
        resolve(this.enqueue(() => this.session.dispose()));
      });
    });
  }

  get isOpen(): boolean {
    return this.open;
  }

  get bufferedBytes(): number {
    return this.outgoing.byteLength;
  }

  destroy(): void {
    this.socket.destroy();
  }

  success(metadata: PackStreamMap): void {
    this.outgoing.add(RESPONSE.SUCCESS, [metadata]);
  }

  record(values: PackStreamValue[]): void {
    this.outgoing.add(RESPONSE.RECORD, [values]);
  }

  failure(failure: BoltFailure): void {
    this.outgoing.add(RESPONSE.FAILURE, [{ code: failure.code, message: failure.message }]);
  }

  ignored(): void {
    this.outgoing.add(RESPONSE.IGNORED, []);
  }

  async flush(): Promise<void> {
    const bytes = this.outgoing.take();
    if (!this.open || bytes.length === 0 || this.socket.write(bytes)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
  }

  close(): void {
    const bytes = this.outgoing.take();
    this.open = false;
    this.socket.end(bytes);
  }

  private receive(data: Buffer): void {
    const messageBytes = this.stage === 'messages' ? data : this.negotiate(data);
    if (messageBytes === null) return;
    for (const message of this.dechunker.push(messageBytes)) {
      void this.enqueue(() => this.handle(message));
    }
  }

  /** Runs `task` after everything queued before it; a task that throws ends the connection. */
  private enqueue(task: () => Promise<void> | void): Promise<void> {
    this.work = this.work.then(task).catch(() => this.destroy());
    return this.work;
  }

  /** The bytes after the negotiation, once it is done; null while it goes on (or failed). */
  private negotiate(data: Buffer): Buffer | null {
    this.handshakeBytes = Buffer.concat([this.handshakeBytes, data]);
    if (this.stage === 'handshake') {
      if (this.handshakeBytes.length < PREAMBLE_LENGTH) return null;
      const answer = answerHandshake(this.handshakeBytes.subarray(0, PREAMBLE_LENGTH));
      this.handshakeBytes = this.handshakeBytes.subarray(PREAMBLE_LENGTH);
      if (answer.outcome === 'refused') {
        this.open = false;
        if (answer.reply) this.socket.end(answer.reply);
        else this.socket.destroy();
        return null;
      }
      // One write: the driver reads the manifest from the same packet as its first four bytes.
      this.socket.write(answer.reply);
      this.stage = answer.outcome === 'manifest' ? 'manifest-choice' : 'messages';
    }
    if (this.stage === 'manifest-choice') {
      const choice = readManifestChoice(this.handshakeBytes);
      if (choice === null) return null;
      if (!choice.accepted) {
        this.destroy();
        return null;
      }
      this.handshakeBytes = this.handshakeBytes.subarray(choice.consumed);
      this.stage = 'messages';
    }
    const rest = this.handshakeBytes;
    this.handshakeBytes = Buffer.alloc(0);
    return rest;
  }

  private async handle(bytes: Buffer): Promise<void> {
    if (!this.open) return;
    let message: PackStreamValue;
    try {
      message = decodePackStream(bytes);
    } catch {
      message = null;
    }
    if (!(message instanceof BoltStructure)) {
      // Not a Bolt message: nothing sensible can follow on this connection.
      this.destroy();
      return;
    }
    await this.session.handle(message);
    await this.flush();
  }
}

/** host:port for a routing table; IPv6 in brackets, IPv4-mapped IPv6 as plain IPv4. */
function formatAddress(host: string | undefined, port: number | undefined): string {
  const address = (host ?? '127.0.0.1').replace(/^::ffff:/, '');
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}
