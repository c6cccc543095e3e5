import { Module } from '@nestjs/common';
import { FetchCallbackSender } from '@ringfence/callbacks';
import { ReviewCallbacksController } from './review-callbacks.controller';
import { CALLBACK_SENDER, ReviewCallbacks } from './review-callbacks.service';

/**
 * Review callbacks (decisions §13), owned by the labelling service: consumes the label topics,
 * stores a delivery for each change of an account with a callback URL, POSTs it signed, retries
 * it, and answers the deliveries read. Needs the runtime, persistence and bus modules (global).
 */
@Module({
  controllers: [ReviewCallbacksController],
  providers: [ReviewCallbacks, { provide: CALLBACK_SENDER, useClass: FetchCallbackSender }],
})
export class CallbacksModule {}
