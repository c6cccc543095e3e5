import { useEffect, useState } from 'preact/hooks';

/** One page of a list the server pages by cursor (`nextCursor`), its items taken out. */
export interface CursorPage<Item> {
  items: Item[];
  nextCursor: string | null;
  total?: number;
}

/**
 * One page after another of a list the server pages by cursor: the first page whenever `key`
 * changes (other filters, or a change made on the page), then `more`. `loading` holds from the
 * render that changed `key`, so a list read for other filters is never shown as current.
 */
export function useCursorPages<Item>(fetchPage: (cursor: string | null) => Promise<CursorPage<Item>>, key: string) {
  const [items, setItems] = useState<Item[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [total, setTotal] = useState<number | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [shownFor, setShownFor] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    setLoading(true);
    setError(null);
    fetchPage(null).then(
      (page) => {
        if (!current) return;
        setItems(page.items);
        setCursor(page.nextCursor);
        setTotal(page.total);
        setShownFor(key);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!current) return;
        setError(failure);
        setShownFor(key);
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
    // `fetchPage` is a new closure on every render; `key` names what it depends on.
  }, [key]);

  async function more() {
    setLoading(true);
    try {
      const page = await fetchPage(cursor);
      setItems((shown) => [...shown, ...page.items]);
      setCursor(page.nextCursor);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoading(false);
    }
  }

  return { items, cursor, total, loading: loading || shownFor !== key, error, more };
}
