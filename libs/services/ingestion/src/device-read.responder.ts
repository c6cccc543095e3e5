import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import { type MessageEnvelope, ReadDeviceRequest, type ReadDeviceReply, RpcTopics, StateGroups } from '@ringfence/contracts';
import { summariseDevice } from '@ringfence/entities';
import { validatedRequestHandler } from '@ringfence/service-runtime';
import { DeviceReadModel } from './device-read-model';

/** Reads answer once the `devices` group has handled the account's earlier events (read your writes). */
const DEVICE_READS: MessagePatternExtras = { group: 'ingestion', consistentWith: [StateGroups.devices] };

/** Answers `ringfence.rpc.ingestion.read-device.v1`: a device of the envelope's data set, and its summary. */
@MessageBusController()
export class DeviceReadResponder {
  private readonly validatedRead = validatedRequestHandler(ReadDeviceRequest, (valid) => this.read(valid));

  constructor(private readonly readModel: DeviceReadModel) {}

  @MessagePattern(RpcTopics.readDevice, DEVICE_READS)
  answerRead(@Payload() message: MessageEnvelope<unknown>): Promise<ReadDeviceReply> {
    return this.validatedRead(message);
  }

  async read({ accountId, environment, payload }: MessageEnvelope<ReadDeviceRequest>): Promise<ReadDeviceReply> {
    const device = await this.readModel.device(accountId, environment, payload.deviceId);
    return { device, summary: device === null ? null : summariseDevice(device) };
  }
}
