import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { BreachedCredentialsImportRequestDto, BreachedCredentialsImportResponseDto, BreachedCredentialsReloadResponseDto } from '@ringfence/contracts';
import {
  BREACHED_CREDENTIALS_REPOSITORY,
  BreachedCredentialsUnavailableError,
  type BreachedCredentialsRepository,
  StoreBusyError,
  normalisePasswordHash,
  normaliseUsername,
} from '@ringfence/credentials';
import { AppError } from '@ringfence/platform';
import { AdminRoute } from '@ringfence/service-runtime';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';

/**
 * The operator's side of the breached-credentials store (ADR-0006, docs/credentials.md).
 * Whole corpora go through `ringfence credentials import`, which writes the store's next
 * generation itself and then calls `reload`; this route takes small batches (an API client's
 * own findings), merged into a new generation before it answers.
 */
@ApiTags('Admin')
@ApiSecurity('adminToken')
@Controller('admin/breached-credentials')
export class BreachedCredentialsAdminController {
  constructor(@Inject(BREACHED_CREDENTIALS_REPOSITORY) private readonly breached: BreachedCredentialsRepository) {}

  @AdminRoute()
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add a small batch of breached username / password-hash pairs',
    description:
      'At most 5,000 entries per request; for whole corpora use `ringfence credentials import FILE…` (docs/credentials.md). Usernames are keyed trimmed and lower-cased, hashes compared in either case. Idempotent: a pair already stored is skipped; `inserted` counts the new pairs. Each request writes a new store generation (a fraction of a second at any store size for a small batch, as untouched partitions are linked, not copied); the next check sees the pairs. 503 while a CLI import holds the store.',
  })
  @ApiOkResponse({ type: BreachedCredentialsImportResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 503)
  async importPairs(@Body() body: BreachedCredentialsImportRequestDto): Promise<BreachedCredentialsImportResponseDto> {
    const inserted = await unavailableAs503(() =>
      this.breached.insert(body.entries.map((entry) => ({ username: normaliseUsername(entry.username), passwordHash: normalisePasswordHash(entry.passwordHash) }))),
    );
    return { received: body.entries.length, inserted };
  }

  @AdminRoute()
  @Post('reload')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Switch checks to the store generation a CLI import just wrote',
    description:
      '`ringfence credentials import` calls this after its atomic swap, so the next check sees the import (without it the server notices within about a second). Answers the generation now read and its size.',
  })
  @ApiOkResponse({ type: BreachedCredentialsReloadResponseDto })
  @ApiErrorResponses(401, 403, 503)
  async reload(): Promise<BreachedCredentialsReloadResponseDto> {
    const stats = await unavailableAs503(() => this.breached.reload());
    return { generation: stats.generation ?? null, pairs: stats.pairs, usernames: stats.usernames };
  }
}

/** The store busy with an import, or the lookup service unreachable: 503, retry. */
export async function unavailableAs503<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error: unknown) {
    if (error instanceof StoreBusyError || error instanceof BreachedCredentialsUnavailableError) throw new AppError('DEPENDENCY_UNAVAILABLE', error.message);
    throw error;
  }
}
