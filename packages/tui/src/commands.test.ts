import { describe, expect, it } from 'vitest';
import { parseInput } from './commands.ts';

describe('parseInput', () => {
  it('sends anything that is not a slash command to the agent, trimmed', () => {
    expect(parseInput('  Two adults for Orbital Drift  ')).toEqual({
      kind: 'instruction',
      text: 'Two adults for Orbital Drift',
    });
    expect(parseInput('   ')).toEqual({ kind: 'empty' });
  });

  it('lets // send a line that starts with a slash', () => {
    expect(parseInput('//help is a movie')).toEqual({ kind: 'instruction', text: '/help is a movie' });
  });

  it.each([
    ['/sessions', { name: 'sessions' }],
    ['/history', { name: 'history' }],
    ['/mcp', { name: 'mcp' }],
    ['/cancel', { name: 'cancel' }],
    ['/new', { name: 'new' }],
    ['/log', { name: 'log' }],
    ['/help', { name: 'help' }],
    ['/quit', { name: 'quit' }],
    ['/exit', { name: 'quit' }],
    ['/HELP', { name: 'help' }],
    ['/skills', { name: 'skills' }],
    ['/skills booking flow', { name: 'skills', filter: 'booking flow' }],
    ['/model', { name: 'model' }],
    ['/model rules', { name: 'model', set: { name: 'rules' } }],
    ['/model openai/gpt-4o-mini', { name: 'model', set: { provider: 'openai', name: 'gpt-4o-mini' } }],
    ['/model openai/meta/llama-3', { name: 'model', set: { provider: 'openai', name: 'meta/llama-3' } }],
  ])('%s', (line, command) => {
    expect(parseInput(line)).toEqual({ kind: 'command', command });
  });

  it.each([
    ['/frobnicate', 'unknown command /frobnicate; /help lists the commands'],
    ['/cancel now', '/cancel takes no arguments'],
    ['/model /gpt', 'usage: /model <provider>/<name>'],
    ['/model openai/', 'usage: /model <provider>/<name>'],
    ['/model a b', 'usage: /model <provider>/<name>'],
  ])('refuses %s', (line, message) => {
    expect(parseInput(line)).toEqual({ kind: 'invalid', message });
  });
});
