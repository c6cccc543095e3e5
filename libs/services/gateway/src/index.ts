export * from './gateway.module';
export * from './openapi/openapi-document';
