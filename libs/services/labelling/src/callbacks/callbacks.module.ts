import { Module } from '@nestjs/common';
import { CallbackAddressPolicy, CallbackDestinations, HttpCallbackSender } from '@ringfence/callbacks';
import type { RingfenceConfig } from '@ringfence/platform';
import { RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { ReviewCallbacksController } from './review-callbacks.controller';
import { CALLBACK_SENDER, ReviewCallbacks } from './review-callbacks.service';
import { LabelStoreModule } from '@ringfence/label-store';

/**
 * Review callbacks (ADR-0013), owned by the labelling service: consumes the label topics,
 * stores a delivery for each change of a data set with a callback URL, POSTs it signed, retries
 * it, and answers the deliveries read. Each attempt connects only where the operator's rules
 * let callbacks go (ADR-0016: public addresses, and `CALLBACK_ALLOWED_NETWORKS`), checked
 * at the connection. Needs the runtime, persistence and bus modules (global).
 */
@Module({
  imports: [LabelStoreModule],
  controllers: [ReviewCallbacksController],
  providers: [
    ReviewCallbacks,
    {
      provide: CALLBACK_SENDER,
      inject: [RINGFENCE_CONFIG],
      useFactory: (config: RingfenceConfig) => new HttpCallbackSender(new CallbackDestinations(new CallbackAddressPolicy(config.callbackAllowedNetworks))),
    },
  ],
})
export class CallbacksModule {}
