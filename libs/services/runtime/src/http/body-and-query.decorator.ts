import { type ExecutionContext, type PipeTransform, createParamDecorator } from '@nestjs/common';
import { AppError } from '@ringfence/platform';
import type { FastifyRequest } from 'fastify';
import { type InputClass, validateInput } from './validate-input';

export interface BodyAndQuery<TBody, TQuery> {
  body: TBody;
  query: TQuery;
}

class BodyAndQueryValidationPipe implements PipeTransform {
  constructor(private readonly bodyClass: InputClass<object>, private readonly queryClass: InputClass<object>) {}

  transform(input: { body: unknown; query: unknown }): BodyAndQuery<object, object> {
    const body = validateInput(this.bodyClass, input.body, 'body');
    const query = validateInput(this.queryClass, input.query ?? {}, 'query');
    if (body.ok && query.ok) return { body: body.value, query: query.value };
    const problems = [...(query.ok ? [] : query.problems), ...(body.ok ? [] : body.problems)];
    throw new AppError('VALIDATION_FAILED', problems.join('; '));
  }
}

const requestParts = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return { body: request.body, query: request.query };
});

/**
 * Body and query validated together, so one 400 lists the failing query parameters and body
 * fields at once (two separate pipes would stop at the first).
 */
export function ValidBodyAndQuery(bodyClass: InputClass<object>, queryClass: InputClass<object>): ParameterDecorator {
  return requestParts(undefined, new BodyAndQueryValidationPipe(bodyClass, queryClass));
}
