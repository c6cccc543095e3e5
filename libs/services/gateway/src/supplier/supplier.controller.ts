import { Body, Controller, Req } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { EventTopics, SupplierRequestDto, SupplierResponseDto, normaliseTimestamps } from '@ringfence/contracts';
import { CurrentPrincipal } from '@ringfence/service-runtime';
import type { FastifyRequest } from 'fastify';
import { EventIntake } from '../intake/event-intake.service';
import { submissionOf } from '../intake/submission';
import { SecretKeyPost } from '../openapi/secret-key-post.decorator';

@ApiTags('Suppliers')
@ApiSecurity('apiKey')
@Controller('v2')
export class SupplierController {
  constructor(private readonly intake: EventIntake) {}

  @SecretKeyPost('supplier', {
    role: 'integration',
    summary: 'Create or update a supplier',
    description:
      'Drivers, couriers, restaurants and similar. Stored by `supplierId`, each field keeping its newest value, with the device, national identifications and vehicles sent. Suppliers are linked to customers through `order.suppliers`. Answers once the data is durably accepted.',
    answer: SupplierResponseDto,
  })
  async upsert(@CurrentPrincipal() principal: Principal, @Body() body: SupplierRequestDto, @Req() request: FastifyRequest): Promise<SupplierResponseDto> {
    await this.intake.ingest(EventTopics.supplierUpdated, submissionOf(principal, body.supplier.supplierId, normaliseTimestamps(body), request));
    return { status: 200, success: 'true' };
  }
}
