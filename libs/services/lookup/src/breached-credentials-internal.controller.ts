import { Body, Controller, HttpCode, Inject, Module, type OnModuleInit, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  BreachedCredentialsImportRequestDto,
  type BreachedCredentialsImportResponseDto,
  BreachedCredentialsPrefixesRequestDto,
  type BreachedCredentialsReloadResponseDto,
} from '@ringfence/contracts';
import { BREACHED_CREDENTIALS_REPOSITORY, type BreachedCredentialsRepository, StoreBusyError, normalisePasswordHash, normaliseUsername } from '@ringfence/credentials';
import { AppError, ConfigError, type RingfenceConfig } from '@ringfence/platform';
import { InternalRoute, RINGFENCE_CONFIG } from '@ringfence/service-runtime';

/**
 * The distributed mode's breached-credentials store, served by the lookup service on its
 * internal HTTP port for the gateway (RemoteBreachedCredentialsRepository), with the internal
 * credential (INTERNAL_API_KEY; the admin token is refused here, ADR-0016). Not on the bus: the username would sit in the broker's log; and the checked password
 * hash never comes here at all (the gateway compares the prefixes answered). Mounted only in
 * the lookup app (apps/lookup), never on the embedded gateway's public port.
 */
@ApiExcludeController()
@Controller('internal/breached-credentials')
export class BreachedCredentialsInternalController {
  constructor(@Inject(BREACHED_CREDENTIALS_REPOSITORY) private readonly breached: BreachedCredentialsRepository) {}

  @InternalRoute()
  @Post('prefixes')
  @HttpCode(200)
  async prefixes(@Body() body: BreachedCredentialsPrefixesRequestDto): Promise<{ prefixes: string[] }> {
    return { prefixes: await this.breached.passwordPrefixesOf(normaliseUsername(body.username)) };
  }

  @InternalRoute()
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

  @InternalRoute()
  @Post('reload')
  @HttpCode(200)
  async reload(): Promise<BreachedCredentialsReloadResponseDto> {
    const stats = await this.breached.reload();
    return { generation: stats.generation ?? null, pairs: stats.pairs, usernames: stats.usernames };
  }
}

/**
 * The lookup app's extra module: the store's internal routes (see the controller). The app does
 * not start without INTERNAL_API_KEY: every breached-credentials check of the gateway would fail.
 */
@Module({ controllers: [BreachedCredentialsInternalController] })
export class LookupCredentialsStoreModule implements OnModuleInit {
  constructor(@Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig) {}

  onModuleInit(): void {
    if (!this.config.internalApiKey) {
      throw new ConfigError(['INTERNAL_API_KEY must be set on the lookup service: the gateway asks its breached-credentials store with it']);
    }
  }
}
