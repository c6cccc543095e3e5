import { Module } from '@nestjs/common';
import { CustomerCheckpointHandler } from './customer-checkpoint.handler';

/** Answers checkpoint requests and publishes every decision. */
@Module({ providers: [CustomerCheckpointHandler] })
export class ScoringModule {}
