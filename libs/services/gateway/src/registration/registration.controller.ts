import { Controller, Inject, Req } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  type CredentialStatusDto,
  RegistrationRecommendationResponseDto,
  RegistrationRequestDto,
  type RegistrationSubmittedEvent,
  normaliseTimestamps, ExplainQueryDto } from '@ringfence/contracts';
import { BREACHED_CREDENTIALS_REPOSITORY, type BreachedCredentialsRepository, type CommonPasswords, CredentialsCheck } from '@ringfence/credentials';
import { prefixedId } from '@ringfence/platform';
import { CurrentPrincipal, type BodyAndQuery, ValidBodyAndQuery } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { CheckpointRoutes } from '../intake/checkpoint-routes';
import { EventIntake } from '../intake/event-intake.service';
import { submissionOf } from '../intake/submission';
import { COMMON_PASSWORDS } from '../lookup/common-passwords.provider';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';

@ApiTags('Customers')
@ApiSecurity('apiKey')
@Controller('v2')
export class RegistrationController {
  private readonly credentials: CredentialsCheck;

  constructor(
    private readonly intake: EventIntake,
    @Inject(BREACHED_CREDENTIALS_REPOSITORY) breached: BreachedCredentialsRepository,
    @Inject(COMMON_PASSWORDS) commonPasswords: CommonPasswords,
  ) {
    this.credentials = new CredentialsCheck(breached, commonPasswords);
  }

  @SecretKeyPost('registration', {
    role: 'integration',
    summary: 'Report a registration attempt and get a recommendation',
    description:
      'The account-registration checkpoint, for a `customer` or a `supplier` (one of them, or neither for an anonymous attempt). `registration.username` and `registration.registrationMechanism.password.passwordHashed` (SHA-256 hex) are checked against the breached-credentials store here, in the gateway: the hash is never stored, logged or put on the bus. The verdict is `credentialStatus`, inside `data` and mirrored at the top level.',
    body: RegistrationRequestDto,
    answer: RegistrationRecommendationResponseDto,
  })
  async register(
    @CurrentPrincipal() principal: Principal,
    @ValidBodyAndQuery(RegistrationRequestDto, ExplainQueryDto) input: BodyAndQuery<RegistrationRequestDto, ExplainQueryDto>,
    @Req() request: FastifyRequest,
  ): Promise<RegistrationRecommendationResponseDto> {
    const { body, query } = input;
    const credentialStatus = await this.credentialStatusOf(body);
    const registrationId = prefixedId('reg');
    const payload: RegistrationSubmittedEvent = Object.assign(normaliseTimestamps(body), { registrationId, credentialStatus });
    const subjectId = body.customer?.customerId ?? body.supplier?.supplierId ?? `registration:${registrationId}`;
    const data = await this.intake.checkpoint(CheckpointRoutes.registration, submissionOf(principal, subjectId, payload, request), { explain: query.explain });
    return { status: 200, timestamp: Date.now(), data: { ...data, credentialStatus }, credentialStatus };
  }

  /** Checks the credentials and removes the hash from the payload before anything else sees it. */
  private async credentialStatusOf(body: RegistrationRequestDto): Promise<CredentialStatusDto> {
    const password = body.registration.registrationMechanism?.password;
    const passwordHash = password?.passwordHashed;
    if (password) delete password.passwordHashed;
    const username = body.registration.username;
    if (!username && !passwordHash) return { usernameBreached: false, passwordBreached: false };
    const { usernameBreached, passwordBreached } = await this.credentials.check(username ?? '', passwordHash ?? '');
    return { usernameBreached: Boolean(username) && usernameBreached, passwordBreached: Boolean(passwordHash) && passwordBreached };
  }
}
