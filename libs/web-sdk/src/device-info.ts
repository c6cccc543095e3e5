import { toHex } from './bytes';

/** What the SDK reports of the browser with each batch (the `device` of `POST /v2/client/events`). */
export interface DeviceReport {
  userAgent: string;
  languages: string[];
  /** The IANA time zone the browser is set to, e.g. `Europe/London`. */
  timeZone: string;
  screen: { width: number; height: number; colorDepth: number; pixelRatio: number };
  platform: string;
  /** `navigator.webdriver`: true when the browser is driven by automation (headless bots). */
  webdriver: boolean;
  /** SHA-256 (hex) of the stable attributes below: the same device after its storage was cleared. */
  fingerprint: string;
}

/** The parts of `window` the report reads; tests pass their own. */
export interface BrowserFacts {
  navigator: Pick<Navigator, 'userAgent' | 'language' | 'languages' | 'platform' | 'webdriver' | 'hardwareConcurrency' | 'maxTouchPoints'> & { deviceMemory?: number; userAgentData?: { platform?: string } };
  screen: Pick<Screen, 'width' | 'height' | 'colorDepth'>;
  devicePixelRatio: number;
  timeZone: string | undefined;
}

/**
 * The attributes the fingerprint hashes, in this order: ones a browser keeps from day to day and
 * that a page can read without a permission or a drawing trick (no canvas, WebGL, audio or font
 * probing). The screen is taken as its longer and shorter side, so turning a phone keeps it.
 */
export function stableAttributes(facts: BrowserFacts): Array<[string, string | number | boolean]> {
  const { navigator, screen } = facts;
  return [
    ['userAgent', navigator.userAgent],
    ['languages', languagesOf(navigator).join(',')],
    ['timeZone', facts.timeZone ?? ''],
    ['screenLong', Math.max(screen.width, screen.height)],
    ['screenShort', Math.min(screen.width, screen.height)],
    ['colorDepth', screen.colorDepth],
    ['pixelRatio', facts.devicePixelRatio],
    ['platform', platformOf(navigator)],
    ['hardwareConcurrency', navigator.hardwareConcurrency ?? 0],
    ['deviceMemory', navigator.deviceMemory ?? 0],
    ['maxTouchPoints', navigator.maxTouchPoints ?? 0],
  ];
}

function languagesOf(navigator: BrowserFacts['navigator']): string[] {
  const languages = navigator.languages?.length ? [...navigator.languages] : [navigator.language].filter(Boolean);
  return languages.slice(0, 10);
}

function platformOf(navigator: BrowserFacts['navigator']): string {
  return navigator.userAgentData?.platform || navigator.platform || '';
}

/** The fingerprint: SHA-256 of the attributes as JSON, in hex. */
export async function fingerprintOf(subtle: SubtleCrypto, facts: BrowserFacts): Promise<string> {
  const canonical = JSON.stringify(stableAttributes(facts));
  return toHex(new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(canonical))));
}

/** The device report of a browser. */
export async function describeDevice(subtle: SubtleCrypto, facts: BrowserFacts): Promise<DeviceReport> {
  const { navigator, screen } = facts;
  return {
    userAgent: navigator.userAgent.slice(0, 512),
    languages: languagesOf(navigator),
    timeZone: facts.timeZone ?? '',
    screen: { width: screen.width, height: screen.height, colorDepth: screen.colorDepth, pixelRatio: facts.devicePixelRatio },
    platform: platformOf(navigator),
    webdriver: navigator.webdriver === true,
    fingerprint: await fingerprintOf(subtle, facts),
  };
}

/** The facts of the running browser. */
export function browserFacts(window: Window): BrowserFacts {
  let timeZone: string | undefined;
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    timeZone = undefined;
  }
  return { navigator: window.navigator, screen: window.screen, devicePixelRatio: window.devicePixelRatio || 1, timeZone };
}
