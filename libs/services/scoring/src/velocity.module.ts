import { Module } from '@nestjs/common';
import { VelocityConsumer } from './velocity.consumer';
import { VelocityState } from './velocity-state.service';

/**
 * Scoring's velocity counters: the consumer that feeds them and the state the checkpoints read
 * (`VelocityState.featuresFor`), exported for the scorer.
 */
@Module({ controllers: [VelocityConsumer], providers: [VelocityState], exports: [VelocityState] })
export class VelocityModule {}
