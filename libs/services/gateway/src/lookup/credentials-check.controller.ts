import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { CredentialsCheckRequestDto, CredentialsCheckResponseDto } from '@ringfence/contracts';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { CredentialsCheckUseCase } from './credentials-check.use-case';

@ApiTags('Lookup')
@ApiSecurity('apiKey')
@Controller('v2/lookup/credentials')
export class CredentialsCheckController {
  constructor(private readonly credentials: CredentialsCheckUseCase) {}

  @SecretKeyRoute()
  @Post('check')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check a username and password hash against breached credentials',
    description: [
      'Send the SHA-256 of the password (64 hex characters), never the password. `usernameBreached`: the username (trimmed, lower-cased) is in the breached-credentials database; `numBreachedPasswords`: how many distinct breached passwords it has there;',
      '`passwordBreached`: the password is one of them, or one of the most common passwords (about 49,000, from the zxcvbn-ts common list).',
      'The hash is used for this check only: it is never stored, logged, traced or published (the check runs in the gateway and never crosses the message bus), and a 400 never repeats it.',
      'A successful answer has exactly these three fields; errors are the usual `{status, message, timestamp, traceId}`.',
    ].join(' '),
  })
  @ApiOkResponse({ type: CredentialsCheckResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  check(@CurrentPrincipal() principal: Principal, @Body() body: CredentialsCheckRequestDto): Promise<CredentialsCheckResponseDto> {
    return this.credentials.execute(principal, body);
  }
}
