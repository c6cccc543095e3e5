import { GraphIndex } from './graph-index';
import { subjectsAt } from './subject-search';

describe(subjectsAt.name, () => {
  function graph(): GraphIndex {
    const index = new GraphIndex();
    index.link('customer', 'ada', 'email', 'shared@example.com', 1);
    index.link('customer', 'eve', 'email', 'shared@example.com', 2);
    index.link('supplier', 'acme', 'email', 'shared@example.com', 3);
    index.link('customer', 'ada', 'device', 'dev-1', 4);
    return index;
  }

  it('finds the customers and suppliers linked to an attribute node, in the order first linked', () => {
    expect(subjectsAt(graph(), 'email', 'shared@example.com', 10)).toEqual([
      { kind: 'customer', identity: 'ada' },
      { kind: 'customer', identity: 'eve' },
      { kind: 'supplier', identity: 'acme' },
    ]);
  });

  it('stops at the limit', () => {
    expect(subjectsAt(graph(), 'email', 'shared@example.com', 2).map((hit) => hit.identity)).toEqual(['ada', 'eve']);
  });

  it('finds a subject by its own id, and nothing for a node the graph never saw', () => {
    expect(subjectsAt(graph(), 'customer', 'eve', 10)).toEqual([{ kind: 'customer', identity: 'eve' }]);
    expect(subjectsAt(graph(), 'customer', 'nobody', 10)).toEqual([]);
    expect(subjectsAt(graph(), 'device', 'dev-2', 10)).toEqual([]);
  });

  it('does not answer attribute nodes linked to a subject searched by id (only subjects)', () => {
    expect(subjectsAt(graph(), 'device', 'dev-1', 10)).toEqual([{ kind: 'customer', identity: 'ada' }]);
  });
});
