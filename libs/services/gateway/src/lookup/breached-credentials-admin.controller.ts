import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { BreachedCredentialsImportRequestDto, BreachedCredentialsImportResponseDto } from '@ringfence/contracts';
import {
  BREACHED_CREDENTIALS_REPOSITORY,
  type BreachedCredentialsRepository,
  normalisePasswordHash,
  normaliseUsername,
} from '@ringfence/credentials';
import { AdminRoute } from '@ringfence/service-runtime';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';

/** The operator loads breach corpora (decisions §6), in batches; `ringfence credentials import` sends them. */
@ApiTags('Admin')
@ApiSecurity('adminToken')
@Controller('admin')
export class BreachedCredentialsAdminController {
  constructor(@Inject(BREACHED_CREDENTIALS_REPOSITORY) private readonly breached: BreachedCredentialsRepository) {}

  @AdminRoute()
  @Post('breached-credentials')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import breached username / password-hash pairs',
    description:
      'At most 5,000 entries per request. Usernames are stored trimmed and lower-cased, hashes in lower case. Idempotent: a pair already stored is skipped, so an interrupted import can be run again. `inserted` counts the new pairs.',
  })
  @ApiOkResponse({ type: BreachedCredentialsImportResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 503)
  async importPairs(@Body() body: BreachedCredentialsImportRequestDto): Promise<BreachedCredentialsImportResponseDto> {
    const inserted = await this.breached.insert(
      body.entries.map((entry) => ({ username: normaliseUsername(entry.username), passwordHash: normalisePasswordHash(entry.passwordHash) })),
    );
    return { received: body.entries.length, inserted };
  }
}
