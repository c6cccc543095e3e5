import { Body, Controller, type INestApplication, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ApiOkResponse, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import {
  CONNECT_NODE_KINDS,
  ConnectFeaturesResponseDto,
  ConnectRequestDto,
  ConnectResponseDto,
  CustomerRecommendationResponseDto,
  RegistrationRecommendationResponseDto,
  RegistrationRequestDto,
  SupplierRequestDto,
  SupplierResponseDto,
  VoucherCheckRequestDto,
  VoucherCheckResponseDto,
  VoucherRedemptionRequestDto,
  VoucherRequestDto,
  VoucherResponseDto,
} from '@ringfence/contracts';

// A stand-in controller: the routes only make the DTOs part of a real OpenAPI document.
@Controller('contract-probe')
class ProbeController {
  @Post('connect') @ApiOkResponse({ type: ConnectResponseDto }) connect(@Body() body: ConnectRequestDto) { return body; }
  @Post('connect-features') @ApiOkResponse({ type: ConnectFeaturesResponseDto }) features(@Body() body: ConnectRequestDto) { return body; }
  @Post('supplier') @ApiOkResponse({ type: SupplierResponseDto }) supplier(@Body() body: SupplierRequestDto) { return body; }
  @Post('registration') @ApiOkResponse({ type: RegistrationRecommendationResponseDto }) registration(@Body() body: RegistrationRequestDto) { return body; }
  @Post('redemption') @ApiOkResponse({ type: CustomerRecommendationResponseDto }) redemption(@Body() body: VoucherRedemptionRequestDto) { return body; }
  @Post('voucher') @ApiOkResponse({ type: VoucherResponseDto }) voucher(@Body() body: VoucherRequestDto) { return body; }
  @Post('check') @ApiOkResponse({ type: VoucherCheckResponseDto }) check(@Body() body: VoucherCheckRequestDto) { return body; }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

type Schema = SchemaObject & { properties?: Record<string, SchemaObject | ReferenceObject> };

describe('OpenAPI of the customer-side DTOs', () => {
  let app: INestApplication;
  let document: OpenAPIObject;
  const schema = (name: string): Schema => {
    const found = document.components?.schemas?.[name] as Schema | undefined;
    if (!found) throw new Error(`no schema ${name}`);
    return found;
  };

  beforeAll(async () => {
    app = await NestFactory.create(ProbeModule, new FastifyAdapter(), { logger: false });
    await app.init();
    document = SwaggerModule.createDocument(app, { openapi: '3.0.0', info: { title: 'probe', version: '1' } });
  });

  afterAll(async () => {
    await app.close();
  });

  it('documents every property of the schemas with an example, except references to other schemas', () => {
    const missing = Object.entries(document.components!.schemas!).flatMap(([name, candidate]) =>
      Object.entries((candidate as Schema).properties ?? {})
        .filter(([, property]) => {
          if ('$ref' in property || property.allOf) return false;
          if (property.type === 'array' && property.items && '$ref' in property.items) return false;
          return property.example === undefined;
        })
        .map(([property]) => `${name}.${property}`),
    );
    expect(missing).toEqual([]);
  });

  it('lists the count and the degree statistics of every node kind in the connect features answer', () => {
    const properties = Object.keys(schema('ConnectFeaturesResponseDto').properties!);
    const expected = CONNECT_NODE_KINDS.flatMap((kind) => [`${kind}Count`, `${kind}DegreeMin`, `${kind}DegreeMean`, `${kind}DegreeMax`]);
    expect(properties).toEqual(expect.arrayContaining(expected));
    expect(properties).not.toContain('status');
    expect(properties).not.toContain('success');
  });

  it('describes national identifications as objects whose keys name the document kind', () => {
    expect(schema('ConnectRequestDto').properties!.nationalIdentifications).toMatchObject({
      type: 'array',
      minItems: 1,
      items: { type: 'object', additionalProperties: { $ref: '#/components/schemas/IdentificationDocumentDto' } },
    });
    expect(schema('IdentificationDocumentDto').required).toEqual(['idNumber']);
  });

  it('gives the connect billing address a geohash and no addresseeName', () => {
    const properties = Object.keys(schema('ConnectBillingAddressDto').properties!);
    expect(properties).toContain('geohash');
    expect(properties).not.toContain('addresseeName');
  });

  it('documents the voucher custom object as open JSON and voucherType as the four types', () => {
    expect(schema('VoucherDto').properties!.custom).toMatchObject({ type: 'object', additionalProperties: true });
    expect(schema('VoucherDto').properties!.voucherType).toMatchObject({ enum: ['REFERRAL', 'REACTIVATION', 'GENERAL', 'STAFF'] });
  });

  it('marks the identity fields required (ADR-0009)', () => {
    expect(schema('ConnectCustomerDto').required).toContain('customerId');
    expect(schema('SupplierDto').required).toContain('supplierId');
    expect(schema('VoucherDto').required).toContain('voucherCode');
    expect(schema('VoucherRedemptionDto').required).toContain('voucherCode');
    expect(schema('VoucherCheckRequestDto').required).toEqual(expect.arrayContaining(['timestamp', 'customerId', 'voucherCode']));
  });
});
