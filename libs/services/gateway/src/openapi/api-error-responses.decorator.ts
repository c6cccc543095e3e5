import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '@ringfence/contracts';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid body or parameter; `message` lists every failing field as `path: rule`.',
  401: 'Missing, malformed, unknown or revoked key.',
  403: 'A key of the wrong kind for this endpoint (for example a publishable key).',
  404: 'Unknown resource.',
  409: 'Conflicts with an existing resource.',
  413: 'Body larger than the limit (1 MiB by default).',
  415: 'Body that is not application/json.',
  429: 'Rate limited.',
  503: 'A dependency (broker, database, scoring) is unavailable; nothing was accepted. Retry.',
};

/** Documents the error envelope for each status an endpoint can answer. */
export function ApiErrorResponses(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorEnvelopeDto })),
  );
}
