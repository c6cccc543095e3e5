import type { Environment } from '@ringfence/contracts';
import type { DeviceRecord } from './device-record';

/** A device of one account's data set. */
export interface DeviceKey {
  accountId: string;
  environment: Environment;
  deviceId: string;
}

/**
 * The device read model's store (ingestion's). Every method takes the tenant: a device id is
 * the merchant's and the SDK's, and two accounts may use the same one.
 */
export interface DeviceRepository {
  find(key: DeviceKey): Promise<DeviceRecord | null>;
  /**
   * Reads the record, calls `change` (pure: it may be called again when another writer won the
   * race) and stores what it returns; null from `change` writes nothing. Answers the record as
   * stored afterwards.
   */
  update(key: DeviceKey, change: (current: DeviceRecord | null) => DeviceRecord | null): Promise<DeviceRecord | null>;
}

export const DEVICE_REPOSITORY = Symbol('DeviceRepository');
