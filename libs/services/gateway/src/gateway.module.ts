import { Module } from '@nestjs/common';
import { AdminController } from './admin/admin.controller';
import { BootstrapAccountService } from './admin/bootstrap-account.service';
import { AuthController } from './auth/auth.controller';
import { CustomerCheckpointUseCase } from './customer/customer-checkpoint.use-case';
import { CustomerController } from './customer/customer.controller';
import { PspTransactionController } from './psp/psp-transaction.controller';
import { TransactionIngestUseCase } from './psp/transaction-ingest.use-case';
import { RateLimits } from './rate-limit/rate-limits.service';

/**
 * The public HTTPS API: authenticates, validates, maps each route to its bus message, and
 * the admin API. Needs the runtime, persistence and bus modules (global) from the app.
 */
@Module({
  controllers: [CustomerController, PspTransactionController, AuthController, AdminController],
  providers: [CustomerCheckpointUseCase, TransactionIngestUseCase, BootstrapAccountService, RateLimits],
})
export class GatewayModule {}
