import { Module } from '@nestjs/common';
import { CheckpointResponders } from './checkpoint-responders';
import { CheckpointFacts } from './checkpoint-facts';
import { CheckpointScorer } from './checkpoint-scorer';

/** Answers checkpoint requests and publishes every decision. */
@Module({ controllers: [CheckpointResponders], providers: [CheckpointScorer, CheckpointFacts] })
export class ScoringModule {}
