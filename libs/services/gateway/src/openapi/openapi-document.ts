import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI document, built from the controllers and the contract DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Ringfence API')
    .setDescription(
      [
        'Fraud-prevention API: recommendations at checkpoints, graph statistics, lookups and labels.',
        '',
        'Authenticate with `Authorization: token <API key>`. Secret keys (`sk_…`, `secret_key_…`) are for servers;',
        'publishable keys (`pk_…`) are refused (403) by these endpoints. `_test_` keys act on the sandbox data set,',
        '`_live_` keys on the live one. Every non-2xx answer is `{status, message, timestamp, traceId}`; the same',
        'traceId is in the `x-trace-id` header. Timestamps may be sent in seconds, milliseconds or nanoseconds.',
        'Unknown request fields are ignored; clients must tolerate new response fields.',
      ].join('\n'),
    )
    .setVersion('2')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: '`token <secret API key>`' }, 'apiKey')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: '`token <ADMIN_API_KEY>`' }, 'adminToken')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves the document at /openapi.json and the rendered docs at /docs. */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
}
