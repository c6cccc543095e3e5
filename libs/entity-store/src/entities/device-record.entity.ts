import type { Environment } from '@ringfence/contracts';
import { EntitySchema } from 'typeorm';

export interface DeviceRecordRow {
  accountId: string;
  environment: Environment;
  deviceId: string;
  /** JSON, in `text`: the device's read model (`DeviceRecord`), read and written whole. */
  record: string;
  /** Bumped by every write; updates are compare-and-set on it. */
  revision: string;
  updatedAt: Date;
}

/** `device_records`: one row per device of a data set, tenant first in the key. */
export const DeviceRecordEntity = new EntitySchema<DeviceRecordRow>({
  name: 'device_record',
  tableName: 'device_records',
  columns: {
    accountId: { name: 'account_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_device_records' },
    environment: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_device_records' },
    deviceId: { name: 'device_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_device_records' },
    record: { type: 'text' },
    revision: { type: 'bigint', default: 0 },
    updatedAt: { name: 'updated_at', type: 'timestamptz', default: () => 'now()' },
  },
  checks: [{ name: 'chk_device_records_environment', expression: `environment IN ('test', 'live')` }],
});
