import { Module } from '@nestjs/common';
import { CheckpointFacts } from './checkpoint-facts';
import { VelocityConsumer } from './velocity.consumer';
import { VelocityState } from './velocity-state.service';
import { ScoringStoreModule } from '@ringfence/scoring-store';

/**
 * Scoring's velocity counters: the consumer that feeds them and the state the checkpoints read
 * (`VelocityState.featuresFor`), exported for the scorer; and what both ask of the data's owners
 * (`CheckpointFacts`: velocity asks ingestion for a disputed transaction's card and merchant).
 */
@Module({ imports: [ScoringStoreModule], controllers: [VelocityConsumer], providers: [VelocityState, CheckpointFacts], exports: [VelocityState, CheckpointFacts] })
export class VelocityModule {}
