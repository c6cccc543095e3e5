import { Body, Controller, HttpCode, Inject, Module, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  BreachedCredentialsImportRequestDto,
  type BreachedCredentialsImportResponseDto,
  BreachedCredentialsPrefixesRequestDto,
  type BreachedCredentialsReloadResponseDto,
} from '@ringfence/contracts';
import { BREACHED_CREDENTIALS_REPOSITORY, type BreachedCredentialsRepository, StoreBusyError, normalisePasswordHash, normaliseUsername } from '@ringfence/credentials';
import { AppError } from '@ringfence/platform';
import { AdminRoute } from '@ringfence/service-runtime';

/**
 * The distributed mode's breached-credentials store, served by the lookup service on its
 * internal HTTP port for the gateway (RemoteBreachedCredentialsRepository), with the admin
 * token. Not on the bus: the username would sit in the broker's log; and the checked password
 * hash never comes here at all (the gateway compares the prefixes answered). Mounted only in
 * the lookup app (apps/lookup), never on the embedded gateway's public port.
 */
@ApiExcludeController()
@Controller('internal/breached-credentials')
export class BreachedCredentialsInternalController {
  constructor(@Inject(BREACHED_CREDENTIALS_REPOSITORY) private readonly breached: BreachedCredentialsRepository) {}

  @AdminRoute()
  @Post('prefixes')
  @HttpCode(200)
  async prefixes(@Body() body: BreachedCredentialsPrefixesRequestDto): Promise<{ prefixes: string[] }> {
    return { prefixes: await this.breached.passwordPrefixesOf(normaliseUsername(body.username)) };
  }

  @AdminRoute()
  @Post('pairs')
  @HttpCode(200)
  async pairs(@Body() body: BreachedCredentialsImportRequestDto): Promise<BreachedCredentialsImportResponseDto> {
    try {
      const inserted = await this.breached.insert(
        body.entries.map((entry) => ({ username: normaliseUsername(entry.username), passwordHash: normalisePasswordHash(entry.passwordHash) })),
      );
      return { received: body.entries.length, inserted };
    } catch (error: unknown) {
      if (error instanceof StoreBusyError) throw new AppError('DEPENDENCY_UNAVAILABLE', error.message);
      throw error;
    }
  }

  @AdminRoute()
  @Post('reload')
  @HttpCode(200)
  async reload(): Promise<BreachedCredentialsReloadResponseDto> {
    const stats = await this.breached.reload();
    return { generation: stats.generation ?? null, pairs: stats.pairs, usernames: stats.usernames };
  }
}

/** The lookup app's extra module: the store's internal routes (see the controller). */
@Module({ controllers: [BreachedCredentialsInternalController] })
export class LookupCredentialsStoreModule {}
