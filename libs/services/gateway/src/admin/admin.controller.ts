import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ACCOUNT_REPOSITORY, API_KEY_REPOSITORY, AccountAdministration, type AccountRepository, type ApiKeyRepository, publicAccountSettings } from '@ringfence/accounts';
import type { CallbackDestinations } from '@ringfence/callbacks';
import { AdminRoute } from '@ringfence/service-runtime';
import { CALLBACK_DESTINATIONS } from '../account/callback-destinations.provider';
import { AllowedOriginsIndex } from '../client/allowed-origins-index';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import {
  AccountListResponseDto,
  AccountResponseDto,
  CreateAccountRequestDto,
  CreatedAccountResponseDto,
  IssueKeyRequestDto,
  IssuedKeyResponseDto,
  UpdateAccountSettingsRequestDto,
  ScoreThresholdsDto,
  VoucherTypeSettingsDto,
} from './admin.dto';

/** The operator's API for accounts and keys (ADR-0002), behind ADMIN_API_KEY. */
@ApiTags('Admin')
@ApiSecurity('adminToken')
@ApiExtraModels(VoucherTypeSettingsDto, ScoreThresholdsDto)
@Controller('admin')
export class AdminController {
  private readonly administration: AccountAdministration;

  constructor(
    @Inject(ACCOUNT_REPOSITORY) accounts: AccountRepository,
    @Inject(API_KEY_REPOSITORY) keys: ApiKeyRepository,
    @Inject(CALLBACK_DESTINATIONS) destinations: CallbackDestinations,
    private readonly origins: AllowedOriginsIndex,
  ) {
    this.administration = new AccountAdministration(accounts, keys, { checkCallbackUrl: (url) => destinations.urlProblem(url) });
  }

  @AdminRoute()
  @Post('accounts')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an account with its four keys', description: 'The only time the plaintext keys are shown.' })
  @ApiCreatedResponse({ type: CreatedAccountResponseDto })
  @ApiErrorResponses(400, 401, 403, 409)
  async createAccount(@Body() body: CreateAccountRequestDto): Promise<CreatedAccountResponseDto> {
    const { account, keys } = await this.administration.createAccount(body.name, body.industry ?? null);
    return {
      accountId: account.id,
      name: account.name,
      industry: account.industry,
      keys: {
        secretTest: keys.secretTest.key,
        secretLive: keys.secretLive.key,
        publishableTest: keys.publishableTest.key,
        publishableLive: keys.publishableLive.key,
      },
    };
  }

  @AdminRoute()
  @Get('accounts')
  @ApiOperation({ summary: 'List accounts and their keys (never the plaintext keys)', description: 'Settings as stored, except the callback secret: `callbackSecretSet` says whether one is set.' })
  @ApiOkResponse({ type: AccountListResponseDto })
  @ApiErrorResponses(401, 403)
  async listAccounts(): Promise<AccountListResponseDto> {
    const accounts = await this.administration.listAccounts();
    const withKeys = await Promise.all(
      accounts.map(async (account) => ({
        accountId: account.id,
        name: account.name,
        industry: account.industry,
        createdAt: account.createdAt.toISOString(),
        settings: publicAccountSettings(account.settings),
        keys: (await this.administration.listKeys(account.id)).map((key) => ({
          keyId: key.id,
          kind: key.kind,
          env: key.environment,
          prefix: key.displayPrefix,
          createdAt: key.createdAt.toISOString(),
          revokedAt: key.revokedAt?.toISOString() ?? null,
        })),
      })),
    );
    return { status: 200, timestamp: Date.now(), accounts: withKeys };
  }

  @AdminRoute()
  @Patch('accounts/:accountId/settings')
  @ApiOperation({
    summary: "Change an account's settings",
    description:
      'Sets the settings sent and keeps the others (`{}` changes nothing); null unsets a setting. Takes effect on the next request. Answers the account with its settings as stored, except the callback secret, which no answer shows (`callbackSecretSet` instead). A 400 names each failing field, e.g. `scoreThresholds.customer.prevent: must be at least review`.',
  })
  @ApiOkResponse({ type: AccountResponseDto })
  @ApiErrorResponses(400, 401, 403, 404)
  async updateSettings(@Param('accountId') accountId: string, @Body() body: UpdateAccountSettingsRequestDto): Promise<AccountResponseDto> {
    const account = await this.administration.updateSettings(accountId, { ...body });
    // A preflight answered after this sees the account's allowed origins as now set.
    this.origins.forget();
    return { accountId: account.id, name: account.name, industry: account.industry, createdAt: account.createdAt.toISOString(), settings: publicAccountSettings(account.settings) };
  }

  @AdminRoute()
  @Post('accounts/:accountId/keys')
  @HttpCode(201)
  @ApiOperation({ summary: 'Issue a new key for an account', description: 'The plaintext key is shown this once.' })
  @ApiCreatedResponse({ type: IssuedKeyResponseDto })
  @ApiErrorResponses(400, 401, 403, 404)
  issueKey(@Param('accountId') accountId: string, @Body() body: IssueKeyRequestDto): Promise<IssuedKeyResponseDto> {
    return this.administration.issueKey(accountId, body.kind, body.env);
  }

  @AdminRoute()
  @Delete('keys/:keyId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a key', description: 'Takes effect on the next request.' })
  @ApiNoContentResponse()
  @ApiErrorResponses(401, 403, 404)
  async revokeKey(@Param('keyId') keyId: string): Promise<void> {
    await this.administration.revokeKey(keyId);
  }
}
