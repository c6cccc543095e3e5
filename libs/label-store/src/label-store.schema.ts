import type { OwnedSchema } from '@ringfence/persistence';
import { CallbackDeliveryEntity } from './entities/callback-delivery.entity';
import { LabelEntity, LabelHistoryEntity } from './entities/label.entity';
import { CaseDecisionEntity, CaseEntity, CaseEventEntity, PaymentReviewEntity } from './entities/case.entity';
import { Labels1764100000000 } from './migrations/1764100000000-labels.migration';
import { CallbackDeliveries1764600000000 } from './migrations/1764600000000-callback-deliveries.migration';
import { CallbackDeliveriesWithoutAccountKey1765700000000 } from './migrations/1765700000000-callback-deliveries-without-account-key.migration';
import { Cases1766100000000 } from './migrations/1766100000000-cases.migration';
import { OpenUnassignedCasesIndex1767071000000 } from './migrations/1767071000000-open-unassigned-cases-index.migration';

/** The labelling service's tables: `labels`, `label_history`, the review callbacks' `callback_deliveries`, and the cases' `cases`, `case_decisions`, `case_events`, `payment_reviews`. */
export const LABEL_STORE_SCHEMA: OwnedSchema = {
  owner: 'labelling',
  entities: [LabelEntity, LabelHistoryEntity, CallbackDeliveryEntity, CaseEntity, CaseDecisionEntity, CaseEventEntity, PaymentReviewEntity],
  migrations: [Labels1764100000000, CallbackDeliveries1764600000000, CallbackDeliveriesWithoutAccountKey1765700000000, Cases1766100000000, OpenUnassignedCasesIndex1767071000000],
};
