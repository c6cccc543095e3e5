import { parseBoltArguments } from './bolt-server-cli';

describe(parseBoltArguments.name, () => {
  it('listens on loopback at a free port by default, or where it is told', () => {
    expect(parseBoltArguments([])).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseBoltArguments(['--port', '7687', '--host', '0.0.0.0'])).toEqual({ host: '0.0.0.0', port: 7687 });
  });

  it('refuses what it does not understand', () => {
    expect(() => parseBoltArguments(['--port', 'seven'])).toThrow(/usage: bolt-server.sh/);
    expect(() => parseBoltArguments(['--until-signal'])).toThrow(/not understood: --until-signal/);
  });
});
