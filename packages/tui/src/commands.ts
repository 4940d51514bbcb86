/**
 * What the operator typed on the input line: an instruction for the agent, or a slash command.
 * `//text` sends `/text` as an instruction.
 */
export type Input =
  | { kind: 'instruction'; text: string }
  | { kind: 'command'; command: Command }
  | { kind: 'empty' }
  | { kind: 'invalid'; message: string };

export type Command =
  | { name: 'sessions' }
  | { name: 'history' }
  | { name: 'model'; set?: { provider?: string; name: string } }
  | { name: 'mcp' }
  | { name: 'skills'; filter?: string }
  | { name: 'cancel' }
  | { name: 'new' }
  | { name: 'log' }
  | { name: 'help' }
  | { name: 'quit' };

/** The slash commands, in the order `/help` lists them. */
export const COMMANDS: ReadonlyArray<{ usage: string; says: string }> = [
  { usage: '/sessions', says: 'list saved sessions and pick one to resume' },
  { usage: '/history', says: "replay the current session's runs" },
  { usage: '/model', says: 'list the planners; /model <provider>/<name> (or /model <name>) switches' },
  { usage: '/mcp', says: 'MCP servers: state, tools, last error' },
  { usage: '/skills [filter]', says: "the agent's skills (SKILL.md), optionally filtered" },
  { usage: '/cancel', says: 'cancel the running run (also Esc, or Ctrl-C)' },
  { usage: '/new', says: 'start a new session' },
  { usage: '/log', says: "the runtime's last stderr lines and its log file" },
  { usage: '/help', says: 'this list' },
  { usage: '/quit', says: 'stop the runtime and leave (also Ctrl-C when idle)' },
];

const noArguments = new Set(['sessions', 'history', 'mcp', 'cancel', 'new', 'log', 'help', 'quit']);

export function parseInput(line: string): Input {
  const text = line.trim();
  if (text === '') return { kind: 'empty' };
  if (text.startsWith('//')) return { kind: 'instruction', text: text.slice(1) };
  if (!text.startsWith('/')) return { kind: 'instruction', text };
  const [word = '', ...rest] = text.slice(1).split(/\s+/);
  const name = word.toLowerCase();
  const args = rest.join(' ');
  if (name === 'exit') return { kind: 'command', command: { name: 'quit' } };
  if (noArguments.has(name)) {
    if (args) return { kind: 'invalid', message: `/${name} takes no arguments` };
    return { kind: 'command', command: { name } as Command };
  }
  if (name === 'skills') return { kind: 'command', command: args ? { name, filter: args } : { name } };
  if (name === 'model') {
    if (!args) return { kind: 'command', command: { name } };
    if (rest.length > 1) return { kind: 'invalid', message: 'usage: /model <provider>/<name>' };
    const slash = args.indexOf('/');
    if (slash === -1) return { kind: 'command', command: { name, set: { name: args } } };
    const provider = args.slice(0, slash);
    const model = args.slice(slash + 1);
    if (!provider || !model) return { kind: 'invalid', message: 'usage: /model <provider>/<name>' };
    return { kind: 'command', command: { name, set: { provider, name: model } } };
  }
  return { kind: 'invalid', message: `unknown command /${word}; /help lists the commands` };
}
