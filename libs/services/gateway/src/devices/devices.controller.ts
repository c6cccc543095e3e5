import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { DeviceRecordResponseDto, MAX_IDENTIFIER_LENGTH, ReadDeviceRequest, RpcTopics } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { CurrentPrincipal, SecretKeyRoute } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { OwnerRequests } from '../owner-requests.service';

const DEVICE_DESCRIPTION = [
  'What the service knows of a device of the key\'s data set: what the SDK last reported (`reported`) and every fingerprint, its sessions with their events counted by type, first and last seen (when the service received them, epoch ms), the client IP addresses of its events, and the customers and cards it was seen with (named by client events, or by checkpoints whose payload names the device: `deviceId` or `device.deviceId`).',
  'Each list keeps its newest entries, oldest first. A write answered 2xx before this request is in the answer. 404 when the data set never saw the device.',
].join(' ');

/** `GET /v2/devices/:deviceId`: the device read model of ingestion, asked over the bus. */
@ApiTags('Client SDKs')
@ApiSecurity('apiKey')
@Controller('v2/devices')
export class DevicesController {
  constructor(private readonly owner: OwnerRequests) {}

  @SecretKeyRoute()
  @Get(':deviceId')
  @ApiOperation({ summary: 'Read a device', description: DEVICE_DESCRIPTION })
  @ApiParam({ name: 'deviceId', description: `1 to ${MAX_IDENTIFIER_LENGTH} characters.` })
  @ApiOkResponse({ type: DeviceRecordResponseDto })
  @ApiErrorResponses(400, 401, 403, 404, 429, 503)
  async read(@CurrentPrincipal() principal: Principal, @Param() path: ReadDeviceRequest, @Req() request: FastifyRequest): Promise<DeviceRecordResponseDto> {
    const { device } = await this.owner.ask(principal, String(request.id), path.deviceId, RpcTopics.readDevice, { deviceId: path.deviceId });
    if (device === null) throw new AppError('NOT_FOUND', `no device ${path.deviceId} in this data set`);
    return { status: 200, timestamp: Date.now(), data: device };
  }
}
