import { type MessageEnvelope, payloadText } from '@ringfence/contracts';
import { isDatabaseUnavailable } from '@ringfence/persistence';
import { AppError, type Logger } from '@ringfence/platform';
import { type InputClass, isValidatedAs, validateInput } from '../http/validate-input';
import { busMessagesHandled } from '../metrics/metrics';

type Constructor<T> = InputClass<T>;

/**
 * In the embedded mode the in-process bus hands every consumer the very object the gateway
 * validated (no serialisation): validating it again would give the same object back, so it is
 * taken as it is. Everything else (JSON from Kafka or replayed from the event log, objects
 * built by hand) is validated here, as a copy of its JSON: `validateInput` reads its input in
 * place (it removes unknown fields), and the payload object may be shared with the other
 * consumers of the message and with its publisher. The payload's text is made once
 * (`payloadText`; the event log has usually made it already), so the copy is one parse.
 */
function toValidPayload<T extends object>(payloadClass: Constructor<T>, message: MessageEnvelope<unknown>): T {
  if (isValidatedAs(message.payload, payloadClass)) return message.payload as T;
  const outcome = validateInput(payloadClass, ownCopyOf(message.payload), 'payload');
  if (!outcome.ok) throw new AppError('VALIDATION_FAILED', `message ${message.eventId}: ${outcome.problems.join('; ')}`);
  return outcome.value;
}

/**
 * The envelope a handler is given: the message itself when its payload was taken as it is (the
 * embedded mode's in-process hops, which copy nothing), else the message with its validated copy.
 */
function withPayload<T>(message: MessageEnvelope<unknown>, payload: T): MessageEnvelope<T> {
  return payload === message.payload ? (message as MessageEnvelope<T>) : { ...message, payload };
}

function ownCopyOf(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null) return payload;
  return JSON.parse(payloadText(payload) as string) as unknown;
}

/**
 * Bus consumers get the same strict validation as HTTP. An invalid event can
 * never succeed, so it is logged and skipped instead of blocking its partition with retries;
 * any other failure is thrown so the bus redelivers.
 */
export function validatedEventHandler<T extends object>(
  topic: string,
  payloadClass: Constructor<T>,
  logger: Logger,
  handler: (message: MessageEnvelope<T>) => Promise<void>,
) {
  return async (message: MessageEnvelope<unknown>): Promise<void> => {
    let payload: T;
    try {
      payload = toValidPayload(payloadClass, message);
    } catch (error) {
      busMessagesHandled.labels(topic, 'invalid').inc();
      logger.error({ topic, eventId: message.eventId, traceId: message.traceId, err: error }, 'skipped an invalid event');
      return;
    }
    try {
      await handler(withPayload(message, payload));
      busMessagesHandled.labels(topic, 'ok').inc();
    } catch (error) {
      busMessagesHandled.labels(topic, 'failed').inc();
      throw error;
    }
  };
}

/**
 * Request handlers: an invalid request is answered with a VALIDATION_FAILED failure, and a
 * database the responder cannot reach with DEPENDENCY_UNAVAILABLE (the requester then answers
 * 503, "retry", rather than 500).
 */
export function validatedRequestHandler<T extends object, R>(
  payloadClass: Constructor<T>,
  handler: (message: MessageEnvelope<T>) => Promise<R>,
) {
  return async (message: MessageEnvelope<unknown>): Promise<R> => {
    const payload = toValidPayload(payloadClass, message);
    try {
      return await handler(withPayload(message, payload));
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw new AppError('DEPENDENCY_UNAVAILABLE', 'the responder cannot reach its database; retry');
      throw error;
    }
  };
}
