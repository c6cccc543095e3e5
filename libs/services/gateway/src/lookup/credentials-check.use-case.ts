import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { CredentialsCheckRequestDto, CredentialsCheckResponseDto } from '@ringfence/contracts';
import {
  BREACHED_CREDENTIALS_REPOSITORY,
  type BreachedCredentialsRepository,
  type CommonPasswords,
  CredentialsCheck,
} from '@ringfence/credentials';
import { RateLimits } from '../rate-limit/rate-limits.service';
import { unavailableAs503 } from './breached-credentials-admin.controller';
import { COMMON_PASSWORDS } from './common-passwords.provider';

/**
 * POST /v2/lookup/credentials/check, answered here in the gateway's process and never over the
 * bus: a request message would put the password hash in the broker's log (or the embedded
 * event log) and in every consumer's hands, and ADR-0006 says it is never stored, logged,
 * traced or published. The hash is compared in memory against the username's breached hash
 * prefixes (read by username only: from the on-disk store in this process, or in the
 * distributed mode from the lookup service, which holds it) and the common-password set, and
 * dropped.
 */
@Injectable()
export class CredentialsCheckUseCase {
  private readonly check: CredentialsCheck;

  constructor(
    @Inject(BREACHED_CREDENTIALS_REPOSITORY) repository: BreachedCredentialsRepository,
    @Inject(COMMON_PASSWORDS) commonPasswords: CommonPasswords,
    private readonly limits: RateLimits,
  ) {
    this.check = new CredentialsCheck(repository, commonPasswords);
  }

  async execute(principal: Principal, body: CredentialsCheckRequestDto): Promise<CredentialsCheckResponseDto> {
    await this.limits.refuseWhenAccountLimited(principal);
    const { usernameBreached, passwordBreached, numBreachedPasswords } = await unavailableAs503(() => this.check.check(body.username, body.passwordHash));
    return { usernameBreached, passwordBreached, numBreachedPasswords };
  }
}
