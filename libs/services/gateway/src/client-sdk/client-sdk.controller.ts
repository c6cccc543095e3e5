import { resolve } from 'node:path';
import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppError } from '@ringfence/platform';
import { PublicRoute } from '@ringfence/service-runtime';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ConsoleAsset, ConsoleAssets } from '../console/console-assets';
import { revalidates } from '../console/console.controller';

export const CLIENT_SDK_ASSETS = Symbol('CLIENT_SDK_ASSETS');

/**
 * Where tools/build.mjs writes the web SDK's bundle, `dist/client` (libs/web-sdk/bundle.mjs),
 * found from the built gateway or from its sources as the console's is.
 */
export const CLIENT_SDK_DIRECTORIES: readonly string[] = [resolve(__dirname, '../../../../../client'), resolve(__dirname, '../../../../../dist/client')];

/** The SDK bundle as tools/build.mjs left it, read once when the gateway starts. */
export const clientSdkAssetsProvider = { provide: CLIENT_SDK_ASSETS, useFactory: () => ConsoleAssets.load(CLIENT_SDK_DIRECTORIES, 'ringfence.js') };

/** The SDK itself: loaded by merchants' pages on other origins, so shared with any of them. */
const SDK_FILES = new Set(['ringfence.js', 'ringfence.mjs']);

/**
 * The sample checkout page: the SDK's script and the page's own, its own origin for the API,
 * nothing else (which is what the browser test checks, ADR-0015).
 */
export const SAMPLE_PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web SDK (ADR-0015) at `/client/ringfence.js` (a classic script defining `Ringfence`) and
 * `/client/ringfence.mjs` (an ES module), and the sample checkout page beside them
 * (`/client/sample-checkout.html`). Public: a merchant's page loads them before any key is used.
 */
@ApiExcludeController()
@Controller('client')
export class ClientSdkController {
  constructor(@Inject(CLIENT_SDK_ASSETS) private readonly assets: ConsoleAssets) {}

  @PublicRoute()
  @Get(':name')
  async file(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!this.assets.built) throw new AppError('NOT_FOUND', 'the web SDK was not built: `npm run build` bundles it into dist/client');
    const asset = this.assets.asset(name);
    if (!asset) throw new AppError('NOT_FOUND', `no client file ${JSON.stringify(name.slice(0, 200))}`);
    await this.send(request, reply, asset);
  }

  private async send(request: FastifyRequest, reply: FastifyReply, asset: ConsoleAsset): Promise<void> {
    void reply.headers({ 'x-content-type-options': 'nosniff', etag: asset.etag, ...(SDK_FILES.has(asset.name) ? sdkHeaders() : samplePageHeaders()) });
    if (revalidates(request.headers['if-none-match'], asset.etag)) {
      await reply.status(304).send();
      return;
    }
    await reply.status(200).type(asset.contentType).send(asset.body);
  }
}

/**
 * Cached for ten minutes, then revalidated by its ETag (a 304): a server upgrade reaches pages
 * within ten minutes without versioned names. Readable from any origin, since an ES module (or
 * a script with `crossorigin`, as Subresource Integrity needs) is fetched with CORS.
 */
function sdkHeaders(): Record<string, string> {
  return { 'cache-control': 'public, max-age=600', 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
}

/** The sample page revalidates on every load, like the console, under its own policy. */
function samplePageHeaders(): Record<string, string> {
  return { 'cache-control': 'no-cache', 'content-security-policy': SAMPLE_PAGE_CONTENT_SECURITY_POLICY, 'x-frame-options': 'DENY' };
}
