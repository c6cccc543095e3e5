import { type ElementRef, MAX_NAME_LENGTH, type PageRef, clip } from './event-queue';

/** What the automatic tracking records: an event type with the page or the element it concerns. */
export type Recorder = (type: string, details: { page?: PageRef; element?: ElementRef }) => void;

/**
 * An element as the events name it: its `name` (or `id`) and its kind, never its value. The kind
 * is `data-ringfence-kind` when the merchant set one, else the field's autocomplete token (the
 * HTML standard's names: `cc-number`, `cc-exp`, `cc-csc`, `cc-name`, `email`,
 * `current-password`…), else its input type or tag name (`text`, `password`, `textarea`, `form`).
 */
export function describeElement(target: EventTarget | null): ElementRef | undefined {
  if (!target || typeof (target as Element).getAttribute !== 'function') return undefined;
  const element = target as Element;
  const attribute = (name: string) => element.getAttribute(name)?.trim() || undefined;
  const autocomplete = attribute('autocomplete')
    ?.split(/\s+/)
    .find((token) => /^(cc-|email|tel|username|current-password|new-password|one-time-code|name|postal-code)/.test(token));
  const tag = element.tagName.toLowerCase();
  const kind = attribute('data-ringfence-kind') ?? autocomplete ?? (tag === 'input' ? (attribute('type') ?? 'text') : tag);
  const name = attribute('name') ?? attribute('id');
  return { ...(name ? { name: clip(name, MAX_NAME_LENGTH) } : {}), kind: clip(kind.toLowerCase(), MAX_NAME_LENGTH) };
}

/** A URL without its query and fragment, which may hold personal data (tokens, e-mail addresses). */
function withoutQuery(href: string): string | undefined {
  try {
    const url = new URL(href);
    return clip(`${url.origin}${url.pathname}`);
  } catch {
    return undefined;
  }
}

/** The page as the events name it: its URL and referrer without query or fragment. */
export function describePage(location: Pick<Location, 'href'>, referrer: string): PageRef {
  const url = withoutQuery(location.href) ?? '';
  const from = referrer ? withoutQuery(referrer) : undefined;
  return from ? { url, referrer: from } : { url };
}

/**
 * Records a page view now, then pastes (which field, never what was pasted: the clipboard is not
 * read) and form submissions; calls `onHide` when the page is hidden or left. No keyboard,
 * input or change listener: keystrokes and field values are never seen. Returns the detacher.
 */
export function autoTrack(window: Window, record: Recorder, onHide: () => void): () => void {
  const { document } = window;
  const page = () => describePage(window.location, document.referrer);
  record('pageview', { page: page() });
  const onPaste = (event: Event) => record('paste', { page: page(), element: describeElement(event.target) });
  const onSubmit = (event: Event) => record('form-submit', { page: page(), element: describeElement(event.target) });
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') onHide();
  };
  // Capture phase: seen even when the page's own handler stops the event.
  document.addEventListener('paste', onPaste, true);
  document.addEventListener('submit', onSubmit, true);
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', onHide);
  return () => {
    document.removeEventListener('paste', onPaste, true);
    document.removeEventListener('submit', onSubmit, true);
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', onHide);
  };
}
