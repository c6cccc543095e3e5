import type { CallbackAttempt, CallbackDeliveryStatus } from '@ringfence/callbacks';
import type { Environment } from '@ringfence/contracts';
import { EntitySchema } from 'typeorm';

export interface CallbackDeliveryRow {
  /** bigint: the driver returns it as a decimal string. */
  sequence: string;
  deliveryId: string;
  accountId: string;
  environment: Environment;
  sourceEventId: string;
  url: string;
  body: string;
  status: CallbackDeliveryStatus;
  attempts: CallbackAttempt[];
  nextAttemptAt: Date | null;
  changedAt: Date;
  createdAt: Date;
}

/**
 * `callback_deliveries`: the label changes to POST to accounts' callback URLs, each with its
 * attempts. `sequence` orders a tenant's deliveries (newest first in the API); the partial index
 * on pending rows' `next_attempt_at` is the dispatcher's queue.
 */
export const CallbackDeliveryEntity = new EntitySchema<CallbackDeliveryRow>({
  name: 'callback_delivery',
  tableName: 'callback_deliveries',
  columns: {
    sequence: { type: 'bigint', primary: true, generated: 'increment', primaryKeyConstraintName: 'pk_callback_deliveries' },
    deliveryId: { name: 'delivery_id', type: 'text' },
    accountId: { name: 'account_id', type: 'text' },
    environment: { type: 'text' },
    sourceEventId: { name: 'source_event_id', type: 'text' },
    url: { type: 'text' },
    body: { type: 'text' },
    status: { type: 'text' },
    attempts: { type: 'jsonb' },
    nextAttemptAt: { name: 'next_attempt_at', type: 'timestamptz', nullable: true },
    changedAt: { name: 'changed_at', type: 'timestamptz' },
    createdAt: { name: 'created_at', type: 'timestamptz' },
  },
  uniques: [
    { name: 'uq_callback_deliveries_delivery_id', columns: ['deliveryId'] },
    { name: 'uq_callback_deliveries_source_event', columns: ['accountId', 'environment', 'sourceEventId'] },
  ],
  indices: [
    { name: 'idx_callback_deliveries_tenant', columns: ['accountId', 'environment', 'sequence'] },
    { name: 'idx_callback_deliveries_due', columns: ['nextAttemptAt'], where: `status = 'pending'` },
  ],
  checks: [
    { name: 'chk_callback_deliveries_environment', expression: `environment IN ('test', 'live')` },
    { name: 'chk_callback_deliveries_status', expression: `status IN ('pending', 'delivered', 'failed')` },
  ],
});
