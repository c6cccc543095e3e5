import { Inject, Injectable } from '@nestjs/common';
import type { DeviceMessage, Environment } from '@ringfence/contracts';
import { DEVICE_REPOSITORY, type DeviceRepository, type DeviceSummary, deviceMessageOf, summariseDevice } from '@ringfence/entities';

/**
 * The device read model's reads, for the device route and for scoring's device features: a
 * device of one data set as stored, or its summary; null for a device the data set never saw.
 * In-process reads: a caller in another process asks `ringfence.rpc.ingestion.read-device.v1`,
 * which answers after the `devices` group caught up (read your writes).
 */
@Injectable()
export class DeviceReadModel {
  constructor(@Inject(DEVICE_REPOSITORY) private readonly devices: DeviceRepository) {}

  async device(accountId: string, environment: Environment, deviceId: string): Promise<DeviceMessage | null> {
    const record = await this.devices.find({ accountId, environment, deviceId });
    return record === null ? null : deviceMessageOf(record);
  }

  async deviceSummary(accountId: string, environment: Environment, deviceId: string): Promise<DeviceSummary | null> {
    const device = await this.device(accountId, environment, deviceId);
    return device === null ? null : summariseDevice(device);
  }
}
