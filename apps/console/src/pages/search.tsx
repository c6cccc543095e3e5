import { useState } from 'preact/hooks';
import { type Api, dataOf } from '../api';
import { ErrorNotice, useLoad } from '../components/common';
import { href, navigate } from '../router';
import type { SearchResult } from '../types';

const KINDS: Array<[string, string]> = [
  ['', 'any kind'],
  ['customerId', 'customer id'],
  ['email', 'e-mail'],
  ['phone', 'phone'],
  ['card', 'card (BIN…last four)'],
  ['instrument', 'card instrument'],
  ['device', 'device'],
  ['ip', 'IP address'],
  ['supplierId', 'supplier id'],
];
const KIND_NAMES = Object.fromEntries(KINDS);
const LIMIT = 50;

/** What matches the text exactly (`GET /v2/search`), each result linking to its subject's page. */
export function Search({ api, q }: { api: Api; q: string }) {
  const [kind, setKind] = useState('');
  const results = useLoad(async () => (q ? dataOf(await api.get<{ data: { results: SearchResult[] } }>('/v2/search', { q, kind, limit: LIMIT })) : { results: [] }), `${q}|${kind}`);
  const found = results.data?.results;
  return (
    <main id="main" tabIndex={-1}>
      <h1>Search</h1>
      <SearchForm initial={q} kind={kind} onKind={setKind} />
      <ErrorNotice error={results.error} />
      {results.loading ? <p aria-live="polite">Searching…</p> : null}
      {found && q ? (
        <p role="status" class="muted">
          {found.length === 0 ? `Nothing matches “${q}”.` : `${found.length}${found.length === LIMIT ? ' or more' : ''} ${found.length === 1 ? 'match' : 'matches'} for “${q}”.`}
        </p>
      ) : null}
      {found && found.length > 0 ? <ResultsTable results={found} /> : null}
    </main>
  );
}

function SearchForm({ initial, kind, onKind }: { initial: string; kind: string; onKind: (kind: string) => void }) {
  const [text, setText] = useState(initial);
  return (
    <form
      class="filters"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim()) navigate({ page: 'search', q: text.trim() });
      }}
    >
      <label>
        Customer id, e-mail, phone, card, device or IP address
        <input id="search-page-q" type="search" maxLength={300} value={text} onInput={(event) => setText(event.currentTarget.value)} />
      </label>
      <label>
        Kind
        <select value={kind} onChange={(event) => onKind(event.currentTarget.value)}>
          {KINDS.map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

function ResultsTable({ results }: { results: SearchResult[] }) {
  return (
    <table class="search-results">
      <thead>
        <tr>
          <th scope="col">Subject</th>
          <th scope="col">Matched</th>
          <th scope="col">Name</th>
          <th scope="col">E-mail</th>
          <th scope="col">Label</th>
        </tr>
      </thead>
      <tbody>
        {results.map((result) => (
          <tr key={`${result.subjectType}/${result.subjectId}/${result.matched.kind}/${result.matched.value}`}>
            <td>
              <a class="result-link" href={href({ page: 'subject', subjectType: result.subjectType, subjectId: result.subjectId })}>
                {result.subjectType} {result.subjectId}
              </a>
            </td>
            <td>
              {KIND_NAMES[result.matched.kind] ?? result.matched.kind} <span class="mono">{result.matched.value}</span>
            </td>
            <td>{result.name ?? '—'}</td>
            <td>{result.email ?? '—'}</td>
            <td>{result.label ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
