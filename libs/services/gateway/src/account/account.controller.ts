import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { OPERATOR_ONLY_SETTINGS, type Principal } from '@ringfence/accounts';
import { CurrentPrincipal, RequiresRole, SecretKeyRoute } from '@ringfence/service-runtime';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { OwnAccountResponseDto, UpdateOwnAccountSettingsRequestDto } from './account.dto';
import { AccountUseCase } from './account.use-case';

const ACCOUNT_DESCRIPTION = [
  "The key's account: its settings as stored (absent ones have their defaults) with `scoreThresholds`, `callbackUrl`, `callbackSecretSet`, `testCallbackUrl`, `testCallbackSecretSet`, `potentialLabelsEnabled`, `timeZone`, `allowedOrigins` and `testAllowedOrigins` always present, and every key of the account by prefix (both data sets, revoked ones with `revokedAt`; `current` marks the request's).",
  'Never a secret: not a callback secret, not a key or its hash. The settings are per account, for both data sets, except review callbacks and browser origins, set per data set (`callbackUrl` and `allowedOrigins` live, `testCallbackUrl` and `testAllowedOrigins` sandbox); `environment` is the data set of the key.',
].join(' ');

const UPDATE_DESCRIPTION = [
  "Sets the account's own `scoreThresholds`, `timeZone` (the IANA zone its checkpoints' hours are read in) and review callbacks (`callbackUrl`, `callbackSecret` for live labels; `testCallbackUrl`, `testCallbackSecret` for sandbox labels) and the browser origins of the client endpoints (`allowedOrigins` live, `testAllowedOrigins` sandbox) with the admin route's rules, keeps the others (`{}` changes nothing; null unsets one), and answers as `GET /v2/account`.",
  'Settings apply to both data sets, from the very next request served by this process (within a second in other gateway and scoring processes), so only a live secret key (`sk_live_…`) may change them: a sandbox key is 403.',
  `The operator's settings (${OPERATOR_ONLY_SETTINGS.join(', ')}) are 400 naming each field; other unknown fields are ignored. A 400 names each failing field, e.g. \`scoreThresholds.customer.prevent: must be at least review\`.`,
].join(' ');

/** The account's own view of itself (ADR-0014: the console's settings and keys page). */
@ApiTags('Account')
@ApiSecurity('apiKey')
@Controller('v2/account')
export class AccountController {
  constructor(private readonly account: AccountUseCase) {}

  @SecretKeyRoute()
  @Get()
  @ApiOperation({ summary: "The key's account: its settings and its keys (prefixes only)", description: ACCOUNT_DESCRIPTION })
  @ApiOkResponse({ type: OwnAccountResponseDto })
  @ApiErrorResponses(401, 403, 429)
  read(@CurrentPrincipal() principal: Principal): Promise<OwnAccountResponseDto> {
    return this.account.read(principal);
  }

  @SecretKeyRoute()
  @RequiresRole('admin')
  @Patch('settings')
  @ApiOperation({ summary: "Change the account's own score thresholds, time zone, review callbacks and allowed origins", description: UPDATE_DESCRIPTION })
  @ApiOkResponse({ type: OwnAccountResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429)
  updateSettings(@CurrentPrincipal() principal: Principal, @Body() body: UpdateOwnAccountSettingsRequestDto): Promise<OwnAccountResponseDto> {
    return this.account.updateSettings(principal, { ...body });
  }
}
