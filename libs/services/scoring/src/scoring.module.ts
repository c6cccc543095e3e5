import { Module } from '@nestjs/common';
import { CheckpointResponders } from './checkpoint-responders';
import { CheckpointScorer } from './checkpoint-scorer';

/** Answers checkpoint requests and publishes every decision. */
@Module({ controllers: [CheckpointResponders], providers: [CheckpointScorer] })
export class ScoringModule {}
