import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { PAYLOAD_ROUTE_LIST } from '@ringfence/contracts';
import { ConnectController } from '../connect/connect.controller';
import { CustomerController } from '../customer/customer.controller';
import { LegacyV2Controller } from '../legacy-v2/legacy-v2.controller';
import { PayoutController } from '../payout/payout.controller';
import { PspDisputeController } from '../psp/psp-dispute.controller';
import { PspTransactionController } from '../psp/psp-transaction.controller';
import { RefundController } from '../refund/refund.controller';
import { RegistrationController } from '../registration/registration.controller';
import { SupplierController } from '../supplier/supplier.controller';
import { VoucherController } from '../voucher/voucher.controller';
import { CheckpointRoutes } from './checkpoint-routes';

const CONTROLLERS = [
  ConnectController,
  CustomerController,
  LegacyV2Controller,
  PayoutController,
  PspDisputeController,
  PspTransactionController,
  RefundController,
  RegistrationController,
  SupplierController,
  VoucherController,
];

/** Every POST path these controllers serve, as `/<controller path>/<method path>`. */
function postPaths(): string[] {
  return CONTROLLERS.flatMap((controller) => {
    const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string;
    const prototype = controller.prototype as unknown as Record<string, unknown>;
    return Object.getOwnPropertyNames(prototype)
      .map((name) => prototype[name])
      .filter((handler) => typeof handler === 'function' && Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.POST)
      .map((handler) => `/${prefix}/${Reflect.getMetadata(PATH_METADATA, handler as object) as string}`);
  });
}

describe('the payload table at the gateway', () => {
  it('serves every path of the contracts’ payload table', () => {
    expect(postPaths()).toEqual(expect.arrayContaining(PAYLOAD_ROUTE_LIST.flatMap((row) => row.paths)));
  });

  it('answers each checkpoint on the topics of its row', () => {
    for (const route of Object.values(CheckpointRoutes)) {
      const row = PAYLOAD_ROUTE_LIST.find((candidate) => 'checkpoint' in candidate && candidate.checkpoint === route.checkpoint)!;
      expect(route).toMatchObject({ ingestTopic: row.ingestTopic, rpcTopic: 'rpcTopic' in row ? row.rpcTopic : undefined, decisionTopic: 'decisionTopic' in row ? row.decisionTopic : undefined });
    }
  });
});
