import type { Provider } from '@nestjs/common';
import { CallbackAddressPolicy, CallbackDestinations } from '@ringfence/callbacks';
import type { RingfenceConfig } from '@ringfence/platform';
import { RINGFENCE_CONFIG } from '@ringfence/service-runtime';

/** Where review callbacks may go (ADR-0016), checked when a callback URL is saved. */
export const CALLBACK_DESTINATIONS = Symbol('CallbackDestinations');

export const callbackDestinationsProvider: Provider = {
  provide: CALLBACK_DESTINATIONS,
  inject: [RINGFENCE_CONFIG],
  useFactory: (config: RingfenceConfig) => new CallbackDestinations(new CallbackAddressPolicy(config.callbackAllowedNetworks)),
};
