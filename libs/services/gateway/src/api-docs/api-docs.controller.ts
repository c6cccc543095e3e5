import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PublicRoute } from '@ringfence/service-runtime';
import { loadApiDocsPage } from './api-docs-page';

/**
 * docs/api.md rendered, at /docs/api: the conventions every route shares, where a warning's
 * `help` points (`/docs/api#warning-<class>`). /docs itself is the OpenAPI reference (Swagger UI).
 */
@ApiExcludeController()
@Controller('docs')
export class ApiDocsController {
  /** Rendered once, at start: a build that left the document out fails to start. */
  private readonly page = loadApiDocsPage();

  @PublicRoute()
  @Get('api')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  api(): string {
    return this.page;
  }
}
