import { Controller, Get, Inject, type OnModuleInit, Param, Req, Res } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppError } from '@ringfence/platform';
import { PublicRoute } from '@ringfence/service-runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_CONTENT_SECURITY_POLICY, type ConsoleAsset, ConsoleAssets } from './console-assets';

export const CONSOLE_ASSETS = Symbol('CONSOLE_ASSETS');

/** If-None-Match (RFC 9110 §13.1.2): `*` or a list of tags, weak ones compared weakly. */
export function revalidates(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/** The bundle as tools/build.mjs left it, read once when the gateway starts. */
export const consoleAssetsProvider = { provide: CONSOLE_ASSETS, useFactory: () => ConsoleAssets.load() };

/**
 * The web console (ADR-0014) at `/console`: a static page and its bundled assets. Public,
 * since loading the page reveals nothing: the analyst signs in on the page, which sends the key
 * with each API call (`Authorization: token …`) and keeps it in sessionStorage only.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController implements OnModuleInit {
  constructor(
    @Inject(CONSOLE_ASSETS) private readonly assets: ConsoleAssets,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /**
   * `/console/` is what people type. Nest folds it into `/console` (one route only), so Fastify
   * would answer it 404, which the envelope filter turns into a confusing 405: redirect it.
   */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.get('/console/', (_request, reply) => reply.redirect('/console', 308));
  }

  @PublicRoute()
  @Get()
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const page = this.assets.index();
    if (!page) throw new AppError('NOT_FOUND', 'the console was not built: `npm run build` bundles it into dist/console');
    await this.send(request, reply, page);
  }

  @PublicRoute()
  @Get('assets/:name')
  async asset(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const asset = this.assets.asset(name);
    if (!asset) throw new AppError('NOT_FOUND', `no console asset ${JSON.stringify(name.slice(0, 200))}`);
    await this.send(request, reply, asset);
  }

  private async send(request: FastifyRequest, reply: FastifyReply, asset: ConsoleAsset): Promise<void> {
    // `no-cache` with a strong ETag: every load revalidates (a 304 costs nothing), so a new
    // build is picked up at once without versioned file names.
    void reply.headers({
      'content-security-policy': CONSOLE_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'cache-control': 'no-cache',
      etag: asset.etag,
    });
    if (revalidates(request.headers['if-none-match'], asset.etag)) {
      await reply.status(304).send();
      return;
    }
    await reply.status(200).type(asset.contentType).send(asset.body);
  }
}
