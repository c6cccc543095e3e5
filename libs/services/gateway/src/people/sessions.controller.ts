import { Body, Controller, Delete, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { AcknowledgementResponseDto } from '@ringfence/contracts';
import { CurrentPrincipal, PublicRoute, RequestCredentials, RequiresRole, SecretKeyRoute, clientAddressKey } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { CurrentSessionResponseDto, SessionResponseDto, SignInRequestDto } from './people.dto';
import { PeopleUseCase } from './people.use-case';

const SIGN_IN_DESCRIPTION = [
  'A person made by the account (`POST /v2/users`) signs in to the console: the answer\'s `token` (`rfs_…`) is then sent as `Authorization: token rfs_…` wherever a secret key is, with the rights of the person\'s role.',
  'The session acts on `environment` (test by default) and ends at `expiresAt` (`SESSION_TTL_SECONDS` after sign-in), at sign-out, or when the person is disabled or changes role.',
  'A wrong e-mail address or password is 401 with one message for both; failed sign-ins are throttled per client address and per e-mail address (429 with `Retry-After`).',
].join(' ');

/** Issue 37: console sessions of named people. */
@ApiTags('People')
@Controller('v2/sessions')
export class SessionsController {
  constructor(
    private readonly people: PeopleUseCase,
    private readonly credentials: RequestCredentials,
  ) {}

  @PublicRoute()
  // OpenAPI's way of saying "no credential": one empty security requirement.
  @ApiSecurity({})
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Sign in a person to the console', description: SIGN_IN_DESCRIPTION })
  @ApiCreatedResponse({ type: SessionResponseDto })
  @ApiErrorResponses(400, 401, 413, 415, 429)
  async signIn(@Body() body: SignInRequestDto, @Req() request: FastifyRequest): Promise<SessionResponseDto> {
    const data = await this.people.signIn(clientAddressKey(request.ip), body.email, body.password, body.environment ?? 'test');
    return { status: 201, timestamp: Date.now(), data };
  }

  @SecretKeyRoute()
  @ApiSecurity('apiKey')
  @Get('current')
  @ApiOperation({ summary: "The request's own session: its person, data set and expiry", description: 'For a secret key, `user` and `expiresAt` are null.' })
  @ApiOkResponse({ type: CurrentSessionResponseDto })
  @ApiErrorResponses(401, 403, 429)
  async current(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<CurrentSessionResponseDto> {
    const { token } = await this.credentials.of(request);
    return { status: 200, timestamp: Date.now(), data: await this.people.current(principal, token) };
  }

  // Every role may sign out.
  @SecretKeyRoute()
  @RequiresRole('viewer')
  @ApiSecurity('apiKey')
  @Delete('current')
  @ApiOperation({ summary: 'Sign out: the session ends at once', description: 'The token is refused from the very next request on. A secret key is 400: keys are revoked by the operator.' })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(400, 401, 403, 429)
  async signOut(@CurrentPrincipal() principal: Principal): Promise<AcknowledgementResponseDto> {
    await this.people.signOut(principal);
    return { status: 200, timestamp: Date.now() };
  }
}
