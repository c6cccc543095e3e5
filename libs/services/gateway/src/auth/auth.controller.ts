import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AcknowledgementResponseDto } from '@ringfence/contracts';
import { SecretKeyRoute } from '@ringfence/service-runtime';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';

@ApiTags('Authentication')
@ApiSecurity('apiKey')
@Controller('v2/auth')
export class AuthController {
  @SecretKeyRoute()
  @Get('checktoken')
  @ApiOperation({ summary: 'Check an API key', description: 'A cheap probe: 200 for a valid secret key.' })
  @ApiOkResponse({ type: AcknowledgementResponseDto })
  @ApiErrorResponses(401, 403)
  checkToken(): AcknowledgementResponseDto {
    return { status: 200, timestamp: Date.now() };
  }
}
