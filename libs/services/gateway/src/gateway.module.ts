import { Module } from '@nestjs/common';
import { AdminController } from './admin/admin.controller';
import { ApiDocsController } from './api-docs/api-docs.controller';
import { BootstrapAccountService } from './admin/bootstrap-account.service';
import { AuthController } from './auth/auth.controller';
import { CustomerController } from './customer/customer.controller';
import { LegacyV2Controller } from './legacy-v2/legacy-v2.controller';
import { CustomerTagsController } from './legacy-v2/customer-tags.controller';
import { CustomerTagsUseCase } from './legacy-v2/customer-tags.use-case';
import { LabelsController } from './labels/labels.controller';
import { LabelsUseCase } from './labels/labels.use-case';
import { LabelUndoUseCase } from './labels/label-undo.use-case';
import { PspTransactionController } from './psp/psp-transaction.controller';
import { PspDisputeController } from './psp/psp-dispute.controller';
import { ConnectController } from './connect/connect.controller';
import { EventIntake } from './intake/event-intake.service';
import { FeedController } from './feed/feed.controller';
import { PayoutController } from './payout/payout.controller';
import { RefundController } from './refund/refund.controller';
import { RegistrationController } from './registration/registration.controller';
import { SupplierController } from './supplier/supplier.controller';
import { VoucherController } from './voucher/voucher.controller';
import { RateLimits } from './rate-limit/rate-limits.service';
import { BreachedCredentialsAdminController } from './lookup/breached-credentials-admin.controller';
import { commonPasswordsProvider } from './lookup/common-passwords.provider';
import { CredentialsCheckController } from './lookup/credentials-check.controller';
import { CredentialsCheckUseCase } from './lookup/credentials-check.use-case';
import { LookupController } from './lookup/lookup.controller';
import { LookupUseCase } from './lookup/lookup.use-case';
import { CallbacksController } from './callbacks/callbacks.controller';
import { CallbacksUseCase } from './callbacks/callbacks.use-case';
import { DecisionsController } from './rules/decisions.controller';
import { DecisionListUseCase } from './rules/decision-list.use-case';
import { StatsController } from './stats/stats.controller';
import { StatsOverviewUseCase } from './stats/stats-overview.use-case';
import { RulesController } from './rules/rules.controller';
import { RulesUseCase } from './rules/rules.use-case';
import { ModelsController } from './models/models.controller';
import { ModelsUseCase } from './models/models.use-case';
import { OwnerRequests } from './owner-requests.service';
import { CasesController } from './cases/cases.controller';
import { PaymentReviewsController } from './cases/payment-reviews.controller';
import { CasesUseCase } from './cases/cases.use-case';
import { SubjectsController } from './subjects/subjects.controller';
import { SubjectsUseCase } from './subjects/subjects.use-case';
import { SearchController } from './search/search.controller';
import { SearchUseCase } from './search/search.use-case';
import { EvidenceController } from './evidence/evidence.controller';
import { EvidenceUseCase } from './evidence/evidence.use-case';
import { ConsoleController, consoleAssetsProvider } from './console/console.controller';
import { ClientSdkModule } from './client-sdk/client-sdk.module';
import { AccountController } from './account/account.controller';
import { AccountUseCase } from './account/account.use-case';
import { callbackDestinationsProvider } from './account/callback-destinations.provider';
import { AccountRegistryHandler } from './account/account-registry.handler';
import { AccountStoreModule } from '@ringfence/account-store';
import { ClientController } from './client/client.controller';
import { ClientEventsUseCase } from './client/client-events.use-case';
import { AllowedOriginsIndex } from './client/allowed-origins-index';
import { DevicesController } from './devices/devices.controller';
import { CLIENT_ENCRYPTION_KEYS } from '@ringfence/contracts';
import { CardCipherIntake } from './card-ciphers/card-cipher-intake.service';
import { CardEncryptionKeys } from './card-ciphers/card-encryption-keys.service';
import { CardEncryptionKeysController } from './card-ciphers/card-encryption-keys.controller';
import { SessionsController } from './people/sessions.controller';
import { UsersController } from './people/users.controller';
import { PeopleUseCase } from './people/people.use-case';
import { SignInAttempts } from './people/sign-in-attempts.service';

/**
 * The public HTTPS API: authenticates, validates, maps each route to its bus message, and
 * the admin API. Needs the runtime, persistence and bus modules (global) from the app.
 */
@Module({
  imports: [AccountStoreModule, ClientSdkModule],
  controllers: [
    CustomerController,
    LegacyV2Controller,
    CustomerTagsController,
    SupplierController,
    PayoutController,
    RefundController,
    RegistrationController,
    VoucherController,
    ConnectController,
    PspTransactionController,
    PspDisputeController,
    SubjectsController,
    SearchController,
    EvidenceController,
    ConsoleController,
    AccountController,
    CardEncryptionKeysController,
    CasesController,
    PaymentReviewsController,
    SessionsController,
    UsersController,
    FeedController, AuthController, AdminController, ApiDocsController, LabelsController, LookupController, CredentialsCheckController, BreachedCredentialsAdminController, CallbacksController, AccountRegistryHandler, RulesController, DecisionsController, StatsController, ModelsController, ClientController, DevicesController],
  providers: [CasesUseCase, LabelUndoUseCase, consoleAssetsProvider, callbackDestinationsProvider, AccountUseCase, EventIntake, BootstrapAccountService, RateLimits, LabelsUseCase, LookupUseCase, CredentialsCheckUseCase, commonPasswordsProvider, CallbacksUseCase, OwnerRequests, RulesUseCase, DecisionListUseCase, StatsOverviewUseCase, ModelsUseCase, SubjectsUseCase, SearchUseCase, EvidenceUseCase, CustomerTagsUseCase, ClientEventsUseCase, AllowedOriginsIndex,
    PeopleUseCase, SignInAttempts,
    CardEncryptionKeys, CardCipherIntake, { provide: CLIENT_ENCRYPTION_KEYS, useExisting: CardEncryptionKeys }],
})
export class GatewayModule {}
