import type { TrafficRequest } from './traffic-sender';

/** The client SDK endpoints: sent with a publishable key, not the secret one. */
export const CLIENT_PATH_PREFIX = '/v2/client/';

/** The device a request names: a client events batch's `deviceId`, a checkpoint's `device.deviceId`. */
function deviceOf(request: TrafficRequest): string | undefined {
  const body = request.body as { deviceId?: unknown; device?: { deviceId?: unknown } } | null;
  const id = request.path.startsWith(CLIENT_PATH_PREFIX) ? body?.deviceId : body?.device?.deviceId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * A device's client events are answered before the next request naming that device is sent, so
 * the checkpoint they precede in the file is scored with them (the device read model reads its
 * writes; sent side by side, the checkpoint could overtake them). Other requests go in parallel.
 */
export class ClientEventsOrder {
  private readonly pending = new Map<string, Promise<unknown>>();

  after<T>(request: TrafficRequest, send: () => Promise<T>): Promise<T> {
    const device = deviceOf(request);
    const before = device === undefined ? undefined : this.pending.get(device);
    const sent = before === undefined ? send() : before.then(send, send);
    if (device !== undefined && request.path.startsWith(CLIENT_PATH_PREFIX)) {
      const settled = sent.then(
        () => undefined,
        () => undefined,
      );
      this.pending.set(device, settled);
      void settled.then(() => {
        if (this.pending.get(device) === settled) this.pending.delete(device);
      });
    }
    return sent;
  }
}

