import { useState } from 'preact/hooks';
import { navigate } from '../router';

/** The header's search: a customer id, e-mail, phone, card (BIN…last four), device or IP address. */
export function SearchBox({ initial = '' }: { initial?: string }) {
  const [q, setQ] = useState(initial);
  return (
    <form
      class="search-box"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        if (q.trim()) navigate({ page: 'search', q: q.trim() });
      }}
    >
      <label for="search-q" class="visually-hidden">
        Search customers by id, e-mail, phone, card, device or IP address
      </label>
      <input id="search-q" type="search" placeholder="Customer, e-mail, card, device, IP…" maxLength={300} value={q} onInput={(event) => setQ(event.currentTarget.value)} />
      <button type="submit" class="secondary">
        Search
      </button>
    </form>
  );
}
