import type { CustomerAccount, SimDevice } from '../entities';
import type { SeededRandom } from '../seeded-random';

/** One checkout session as the SDK sees it. */
export interface SessionPlan {
  webdriver: boolean;
  timeZone: string;
  pageviews: number;
  /** From the first page view to the checkout, on the browser's clock. */
  seconds: number;
  /** Pastes into the card number field (`cc-number`). */
  cardPastes: number;
  /** Pastes into other fields (an e-mail address, a voucher code). */
  otherPastes: number;
}

const SHOP = 'https://shop.ringfence-market.example';
const PAGES = ['/', '/search', '/category', '/product', '/product', '/basket'];
const SCREENS: Record<SimDevice['profile']['type'], Array<{ width: number; height: number; pixelRatio: number }>> = {
  phone: [{ width: 390, height: 844, pixelRatio: 3 }, { width: 412, height: 915, pixelRatio: 2.625 }],
  tablet: [{ width: 820, height: 1180, pixelRatio: 2 }],
  desktop: [{ width: 1920, height: 1080, pixelRatio: 1 }, { width: 1440, height: 900, pixelRatio: 2 }],
};

/**
 * `POST /v2/client/events` of one checkout session (docs/api.md, "Client SDKs"): the device facts
 * the SDK reads (its user agent, languages, time zone, screen, `webdriver`, a fingerprint stable
 * per device), then the page views, pastes (the field's name and kind, never a value) and the
 * checkout, on the browser's clock up to `time`.
 */
export function clientEventsRequest(time: number, account: CustomerAccount, device: SimDevice, plan: SessionPlan, random: SeededRandom, deviceRandom: SeededRandom): Record<string, unknown> {
  const { profile } = device;
  const start = time - plan.seconds * 1000;
  const at = (share: number) => Math.round(start + share * (time - 1000 - start));
  const events: Array<Record<string, unknown>> = [];
  for (let index = 0; index < plan.pageviews; index += 1) {
    const path = index === plan.pageviews - 1 ? '/checkout' : (PAGES[Math.min(index, PAGES.length - 1)] ?? '/');
    events.push({ type: 'pageview', time: at(index / Math.max(1, plan.pageviews)), page: { url: `${SHOP}${path}`, ...(index > 0 ? { referrer: `${SHOP}${PAGES[Math.min(index - 1, PAGES.length - 1)]}` } : {}) } });
  }
  for (let index = 0; index < plan.otherPastes; index += 1) {
    events.push({ type: 'paste', time: at(random.between(0.5, 0.9)), page: { url: `${SHOP}/checkout` }, element: { name: 'email', kind: 'email' } });
  }
  for (let index = 0; index < plan.cardPastes; index += 1) {
    events.push({ type: 'paste', time: at(random.between(0.9, 0.99)), page: { url: `${SHOP}/checkout` }, element: { name: 'card-number', kind: 'cc-number' } });
  }
  events.push({ type: 'form-submit', time: time - 500, page: { url: `${SHOP}/checkout` }, element: { name: 'checkout', kind: 'form' } });
  events.sort((left, right) => (left.time as number) - (right.time as number));
  return {
    timestamp: time,
    deviceId: device.deviceId,
    sessionId: `s-${random.hex(16)}`,
    customerId: account.customerId,
    device: {
      userAgent: profile.userAgent,
      languages: [device.language, device.language.split('-')[0] ?? device.language],
      timeZone: plan.timeZone,
      screen: { ...deviceRandom.pick(SCREENS[profile.type]), colorDepth: 24 },
      platform: profile.os,
      webdriver: plan.webdriver,
      fingerprint: deviceRandom.hex(16),
    },
    events,
  };
}
