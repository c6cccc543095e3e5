import { Controller, Get, Header, HttpCode, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { metricsRegistry } from '../metrics/metrics';
import { PublicRoute } from '../http/route-access.decorator';
import { READINESS_CHECKS, type ReadinessCheck } from '../tokens';

const READINESS_TIMEOUT_MS = 2000;

async function checkWithin(check: ReadinessCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([check.isReady().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Liveness, readiness and Prometheus metrics: served by every app. */
@ApiExcludeController()
@Controller()
export class OpsController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

  @PublicRoute()
  @Get('health/live')
  live() {
    return { status: 200, timestamp: Date.now() };
  }

  /** 200 when every dependency answers within two seconds, else 503 naming the failing ones. */
  @PublicRoute()
  @Get('health/ready')
  async ready() {
    const results = await Promise.all(this.checks.map(async (check) => [check.name, await checkWithin(check, READINESS_TIMEOUT_MS)] as const));
    const failing = results.filter(([, ok]) => !ok).map(([name]) => name);
    if (failing.length > 0) {
      throw new ServiceUnavailableException(`not ready: ${failing.join(', ')} unavailable`);
    }
    return { status: 200, timestamp: Date.now(), checks: Object.fromEntries(results) };
  }

  @PublicRoute()
  @Get('metrics')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async metrics(@Res() reply: FastifyReply) {
    await reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  }
}
