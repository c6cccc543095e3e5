import { Body, Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { AppError } from '@ringfence/platform';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';
import { CardKeyListResponseDto, RotatedCardKeyResponseDto } from './card-encryption-keys.dto';
import { CardEncryptionKeys } from './card-encryption-keys.service';

const ROTATE_DESCRIPTION = [
  "Makes a new RSA key pair for card encryption in the key's data set (a sandbox key: the sandbox's; a live key: the live one's) and answers its public half, current from now on: `GET /v2/client/encryption-key` gives it to the SDKs (within a minute in other gateway processes).",
  'The earlier pairs are kept: a cipher made under any of them still decrypts. The private keys are never answered. No body.',
].join(' ');

/** Card encryption's key pairs, seen and rotated by the merchant (ADR-0015; docs/api.md "Encrypted cards"). */
@ApiTags('Account')
@ApiSecurity('apiKey')
@Controller('v2/account/encryption-keys')
export class CardEncryptionKeysController {
  constructor(private readonly keys: CardEncryptionKeys) {}

  @SecretKeyPost('', { role: 'admin', summary: 'Rotate the card-encryption key pair of the data set', description: ROTATE_DESCRIPTION, answer: RotatedCardKeyResponseDto })
  async rotate(@CurrentPrincipal() principal: Principal, @Body() body: unknown): Promise<RotatedCardKeyResponseDto> {
    refuseNonObjectBody(body);
    const data = await this.keys.rotate(principal.account.id, principal.environment);
    return { status: 200, timestamp: Date.now(), data };
  }

  @SecretKeyRoute()
  @Get()
  @ApiOperation({
    summary: "The data set's card-encryption public keys",
    description: 'Every key pair of the data set by its public half, oldest first, `current` marking the one the SDKs are given; the first pair is made on first need. Never a private key.',
  })
  @ApiOkResponse({ type: CardKeyListResponseDto })
  @ApiErrorResponses(401, 403, 429)
  async list(@CurrentPrincipal() principal: Principal): Promise<CardKeyListResponseDto> {
    const { id } = principal.account;
    let keys = await this.keys.list(id, principal.environment);
    if (keys.length === 0) {
      await this.keys.currentPublicKey(id, principal.environment);
      keys = await this.keys.list(id, principal.environment);
    }
    return { status: 200, timestamp: Date.now(), data: keys.map((key) => ({ ...key, createdAt: key.createdAt.toISOString() })) };
  }
}

/**
 * The rotation takes no body: none, or an object whose fields it ignores (unknown fields are
 * ignored everywhere), as clients that send `{}` on every POST do; anything else is a 400.
 */
function refuseNonObjectBody(body: unknown): void {
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new AppError('VALIDATION_FAILED', 'body: must be a JSON object, or absent (this route reads no body)');
  }
}
