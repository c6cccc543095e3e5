import { HttpCode, Post, type Type, applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { IntegrationRoute, RequiresRole, type RouteRole, SecretKeyRoute } from '@ringfence/service-runtime';
import { ApiErrorResponses } from './api-error-responses.decorator';

/** How a `SecretKeyPost` endpoint is documented. */
export interface SecretKeyPostDocs {
  summary: string;
  description: string;
  /** The request body's class, when the document names it. */
  body?: Type<unknown>;
  /** The class of the 200 answer. */
  answer: Type<unknown>;
  /**
   * Issue 37: who of the console's people may call it; 'integration' for the merchant's back
   * end only (checkpoint events, PSP feeds: a console session is refused). Absent: an analyst.
   */
  role?: RouteRole;
}

/**
 * A POST endpoint for the merchant's back end (a secret key) that answers 200: its route, its
 * OpenAPI operation, body and answer, and the errors every such endpoint can answer. Applied in
 * the order the same decorators take when stacked above a method (the lowest first).
 */
export function SecretKeyPost(path: string, docs: SecretKeyPostDocs): MethodDecorator {
  return applyDecorators(
    ApiErrorResponses(400, 401, 403, 413, 415, 429, 503),
    ApiOkResponse({ type: docs.answer }),
    ...(docs.body === undefined ? [] : [ApiBody({ type: docs.body })]),
    ApiOperation({ summary: docs.summary, description: docs.description }),
    HttpCode(200),
    Post(path),
    SecretKeyRoute(),
    ...(docs.role === undefined ? [] : [docs.role === 'integration' ? IntegrationRoute() : RequiresRole(docs.role)]),
  );
}
