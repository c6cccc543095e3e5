import { Body, Controller } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { CredentialsCheckRequestDto, CredentialsCheckResponseDto } from '@ringfence/contracts';
import { CurrentPrincipal } from '@ringfence/service-runtime';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';
import { CredentialsCheckUseCase } from './credentials-check.use-case';

@ApiTags('Lookup')
@ApiSecurity('apiKey')
@Controller('v2/lookup/credentials')
export class CredentialsCheckController {
  constructor(private readonly credentials: CredentialsCheckUseCase) {}

  @SecretKeyPost('check', {
    role: 'integration',
    summary: 'Check a username and password hash against breached credentials',
    description: [
      'Send the SHA-256 of the password (64 hex characters), never the password. `usernameBreached`: the username (trimmed, lower-cased) is in the breached-credentials database; `numBreachedPasswords`: how many distinct breached passwords it has there;',
      '`passwordBreached`: the password is one of them, or one of the most common passwords (about 49,000, from the zxcvbn-ts common list).',
      'The hash is used for this check only: it is never stored, logged, traced or published (the check runs in the gateway and never crosses the message bus), and a 400 never repeats it.',
      'A successful answer has exactly these three fields; errors are the usual `{status, message, timestamp, traceId}`.',
    ].join(' '),
    answer: CredentialsCheckResponseDto,
  })
  check(@CurrentPrincipal() principal: Principal, @Body() body: CredentialsCheckRequestDto): Promise<CredentialsCheckResponseDto> {
    return this.credentials.execute(principal, body);
  }
}
