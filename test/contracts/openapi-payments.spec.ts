import { Body, Controller, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ApiBody, ApiOkResponse, DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import {
  CardPaymentMethodDto,
  PaymentMethodCipherDto,
  PayoutRecommendationResponseDto,
  PayoutRequestDto,
  PspDisputeRequestDto,
  PspDisputeResponseDto,
  PspTransactionRequestDto,
  PspTransactionResponseDto,
  RefundRecommendationResponseDto,
  RefundRequestDto,
} from '@ringfence/contracts';

// The payment-side DTOs on their own routes, so their OpenAPI schemas are checked before (and
// independently of) the gateway controllers that use them.
@Controller()
class PaymentContractsController {
  @Post('payout') @ApiBody({ type: PayoutRequestDto }) @ApiOkResponse({ type: PayoutRecommendationResponseDto })
  payout(@Body() body: PayoutRequestDto) {
    return body;
  }

  @Post('refund') @ApiBody({ type: RefundRequestDto }) @ApiOkResponse({ type: RefundRecommendationResponseDto })
  refund(@Body() body: RefundRequestDto) {
    return body;
  }

  @Post('transaction') @ApiBody({ type: PspTransactionRequestDto }) @ApiOkResponse({ type: PspTransactionResponseDto })
  transaction(@Body() body: PspTransactionRequestDto) {
    return body;
  }

  @Post('dispute') @ApiBody({ type: PspDisputeRequestDto }) @ApiOkResponse({ type: PspDisputeResponseDto })
  dispute(@Body() body: PspDisputeRequestDto) {
    return body;
  }
}

@Module({ controllers: [PaymentContractsController] })
class PaymentContractsModule {}

type Schema = { $ref?: string; allOf?: Schema[]; oneOf?: Schema[]; items?: Schema; example?: unknown; properties?: Record<string, Schema> };

/** The component schemas reachable from `name`, depth first. */
function reachableSchemas(document: OpenAPIObject, name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  const refs = JSON.stringify(document.components!.schemas![name]).matchAll(/"\$ref":"#\/components\/schemas\/([^"]*)"/g);
  for (const [, ref] of refs) reachableSchemas(document, ref!, seen);
  return seen;
}

/** A property documents its value when it has an example, or refers to a schema whose properties do. */
const documentsItsValue = (property: Schema): boolean =>
  property.example !== undefined ||
  property.$ref !== undefined ||
  (property.allOf ?? property.oneOf ?? []).some(documentsItsValue) ||
  (property.items !== undefined && documentsItsValue(property.items));

describe('OpenAPI schemas of the payment-side contracts', () => {
  let document: OpenAPIObject;

  beforeAll(async () => {
    const app = await NestFactory.create(PaymentContractsModule, new FastifyAdapter(), { logger: false });
    await app.init();
    document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    await app.close();
  });

  const roots = ['PayoutRequestDto', 'RefundRequestDto', 'PspTransactionRequestDto', 'PspDisputeRequestDto', 'PayoutRecommendationResponseDto',
    'RefundRecommendationResponseDto', 'PspTransactionResponseDto', 'PspDisputeResponseDto'];

  it('defines every schema a reference points to', () => {
    const missing = roots.flatMap((root) => [...reachableSchemas(document, root)]).filter((name) => document.components!.schemas![name] === undefined);
    expect(missing).toEqual([]);
  });

  it('documents an example for every property of every reachable schema', () => {
    const names = new Set(roots.flatMap((root) => [...reachableSchemas(document, root)]));
    const undocumented = [...names].flatMap((name) =>
      Object.entries((document.components!.schemas![name] as Schema).properties ?? {})
        .filter(([, property]) => !documentsItsValue(property))
        .map(([property]) => `${name}.${property}`),
    );
    expect(undocumented).toEqual([]);
  });

  it('describes a payment method as the card schema, the card cipher (ADR-0015) or an open variant', () => {
    const payout = document.components!.schemas!['PayoutRequestDto'] as Schema;
    const variants = payout.properties!['paymentMethod']!.oneOf!;
    expect(variants[0]).toEqual({ $ref: `#/components/schemas/${CardPaymentMethodDto.name}` });
    expect(variants[1]).toEqual({ $ref: `#/components/schemas/${PaymentMethodCipherDto.name}` });
    expect(variants[2]).toMatchObject({ required: ['methodType'], additionalProperties: true });
    expect(payout.properties!['paymentMethods']!.items!.oneOf).toEqual(variants);
  });
});
