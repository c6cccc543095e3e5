import { Body, Controller, Get, Headers, HttpCode, Options, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import {
  CLIENT_EVENTS_BODY_LIMIT_BYTES,
  ClientEncryptionKeyResponseDto,
  ClientEventsAcceptedResponseDto,
  ClientEventsRequestDto,
  MAX_CLIENT_EVENTS_PER_CALL,
  normaliseTimestamps,
} from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { CurrentPrincipal, PublicRoute, PublishableKeyRoute, corsPreflightHeaders } from '@ringfence/service-runtime';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { AllowedOriginsIndex } from './allowed-origins-index';
import { CLIENT_EVENT_CALLS_PER_DEVICE_PER_MINUTE, ClientEventsUseCase } from './client-events.use-case';

const KEY_QUERY = {
  name: 'key',
  required: false,
  description: 'The publishable key (pk_…), when it cannot come in `Authorization: token <key>` (navigator.sendBeacon sets no header).',
} as const;

const ACCESS = [
  'A publishable key (pk_…) only: in `Authorization: token <key>` or the `key` query parameter; a secret key is 403.',
  "From a browser (a request with `Origin`), the origin must be one of the key's data set's `allowedOrigins` (PATCH /v2/account/settings): otherwise 403 and nothing is kept; an allowed origin gets `Access-Control-Allow-Origin` on every answer. A CORS preflight (OPTIONS, which carries no key) is answered 204 with the CORS headers for an origin that some data set allows, 403 otherwise.",
].join(' ');

const EVENTS_DESCRIPTION = [
  `A batch of at most ${MAX_CLIENT_EVENTS_PER_CALL} session events of one device, in at most ${CLIENT_EVENTS_BODY_LIMIT_BYTES / 1024} KiB (413 past it), as \`application/json\` or \`text/plain\` (what \`navigator.sendBeacon\` sends without a preflight), read as JSON either way.`,
  ACCESS,
  `The client's IP address is added from the connection (or a proxy of \`TRUSTED_PROXIES\`). Answered 202 once the batch is durable; \`GET /v2/devices/:deviceId\` shows it on the very next request.`,
  `At most ${CLIENT_EVENT_CALLS_PER_DEVICE_PER_MINUTE} calls a minute per device (429, nothing kept); not counted against the account's own limit.`,
].join(' ');

const KEY_DESCRIPTION = [
  "The data set's current RSA public key for card encryption (the Payment Method Cipher: AES-256-GCM, its key and IV wrapped by RSA-OAEP-SHA256), with the `keyIndex` a cipher made with it names.",
  ACCESS,
].join(' ');

/** The client SDKs' endpoints (ADR-0015), and their CORS preflights. */
@ApiTags('Client SDKs')
@ApiSecurity('apiKey')
@Controller('v2/client')
export class ClientController {
  constructor(
    private readonly client: ClientEventsUseCase,
    private readonly origins: AllowedOriginsIndex,
  ) {}

  @PublishableKeyRoute()
  @Post('events')
  @HttpCode(202)
  @ApiOperation({ summary: "Send a device's session events (publishable key)", description: EVENTS_DESCRIPTION })
  @ApiQuery(KEY_QUERY)
  @ApiBody({ type: ClientEventsRequestDto })
  @ApiAcceptedResponse({ type: ClientEventsAcceptedResponseDto })
  @ApiErrorResponses(400, 401, 403, 413, 415, 429, 503)
  events(@CurrentPrincipal() principal: Principal, @Body() body: ClientEventsRequestDto, @Req() request: FastifyRequest): Promise<ClientEventsAcceptedResponseDto> {
    return this.client.accept(principal, normaliseTimestamps(body), { traceId: String(request.id), ipAddress: request.ip });
  }

  @PublishableKeyRoute()
  @Get('encryption-key')
  @ApiOperation({ summary: "The data set's card-encryption public key (publishable key)", description: KEY_DESCRIPTION })
  @ApiQuery(KEY_QUERY)
  @ApiOkResponse({ type: ClientEncryptionKeyResponseDto })
  @ApiErrorResponses(401, 403, 429, 503)
  encryptionKey(@CurrentPrincipal() principal: Principal): Promise<ClientEncryptionKeyResponseDto> {
    return this.client.encryptionKey(principal);
  }

  // Preflights are the browser's, not an integration's: described with the routes they precede.
  @PublicRoute()
  @Options('events')
  @ApiExcludeEndpoint()
  eventsPreflight(@Headers('origin') origin: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    return this.preflight(origin, reply);
  }

  @PublicRoute()
  @Options('encryption-key')
  @ApiExcludeEndpoint()
  encryptionKeyPreflight(@Headers('origin') origin: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    return this.preflight(origin, reply);
  }

  private async preflight(origin: string | undefined, reply: FastifyReply): Promise<void> {
    if (origin === undefined || !(await this.origins.allowedAnywhere(origin))) {
      throw new AppError('FORBIDDEN', 'Origin: no data set allows this origin (allowedOrigins)');
    }
    await reply.status(204).headers(corsPreflightHeaders(origin)).send();
  }
}
