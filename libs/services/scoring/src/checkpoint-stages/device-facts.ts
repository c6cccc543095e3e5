import type { MessageBus } from '@ringfence/bus';
import { type Checkpoint, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import type { EntityDocument } from '@ringfence/entities';
import { type Logger, type RingfenceConfig, newEventId } from '@ringfence/platform';
import { SDK_CHECKPOINTS, type SdkDeviceInput } from '@ringfence/scoring-engine';
import type { CheckpointRequest } from './checkpoint-request';

/**
 * The device read model's part of a checkpoint's facts (the client SDKs' sessions, ADR-0015),
 * asked of ingestion over the bus (`ringfence.rpc.ingestion.read-device.v1`, which answers once
 * the `devices` group has handled the account's earlier events): scoring reads no table of
 * ingestion's. Like the graph, it informs the score and must not sink the checkpoint: what does
 * not answer within half the checkpoint's budget is left out (the `sdk…` features are null).
 */
export class DeviceFacts {
  /** Whether the last ask failed: an outage is logged once when it starts and once when it ends. */
  private down = false;

  constructor(
    private readonly bus: MessageBus,
    private readonly config: RingfenceConfig,
    private readonly logger: Logger,
  ) {}

  /**
   * The device of the request (`device.deviceId` or `deviceId`), else the customer's last device
   * on record (`lastDeviceId` of the stored subject, read as soon as `stored` answers, so the
   * ask still runs beside the graph's and the lookup's); null when there is none, the checkpoint
   * computes no device feature, or ingestion did not answer in time.
   */
  async of(checkpoint: Checkpoint, message: MessageEnvelope<unknown>, request: CheckpointRequest, stored: Promise<{ subject: EntityDocument | null }>): Promise<SdkDeviceInput | null> {
    if (!SDK_CHECKPOINTS.includes(checkpoint)) return null;
    const deadline = Date.now() + Math.max(1, Math.floor(this.config.rpcTimeoutMs / 2));
    try {
      const named = deviceIdOf(request.facts.device.id);
      // The entities' failure fails the checkpoint on its own path; here it only means no stored device.
      const lastDevice = async () => deviceIdOf((await stored.catch(() => null))?.subject?.fields.lastDeviceId);
      const deviceId = named ?? (request.subject.kind === 'customer' ? await lastDevice() : null);
      if (deviceId === null) return null;
      const { summary } = await this.bus.request(RpcTopics.readDevice, { ...message, eventId: newEventId(), payload: { deviceId } }, { timeoutMs: Math.max(1, deadline - Date.now()) });
      this.answered();
      return { deviceId, source: named === null ? 'subject' : 'request', summary };
    } catch (error) {
      this.failed(checkpoint, message, error);
      return null;
    }
  }

  private answered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info({}, 'the device read model answers again: checkpoints scored with the sdk features');
  }

  private failed(checkpoint: Checkpoint, message: MessageEnvelope<unknown>, error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn({ checkpoint, traceId: message.traceId, err: error }, 'scored without the sdk features: the device read model did not answer (logged once until it answers again)');
  }
}

/** A device id as the payload or the stored record holds it: a non-blank string, else null. */
function deviceIdOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= 300 ? value : null;
}
