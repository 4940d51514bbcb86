import {
  allToolDefinitions,
  type ChatEntry,
  createMessage,
  type Item,
  type MessageType,
  type PayloadInputOf,
  type UiSpec,
} from '@usher/protocol';

const MOVIES: Array<[title: string, genres: string[], minutes: number, rating: number, age: string]> = [
  ['The Long Harbour', ['drama', 'romance'], 124, 7.8, 'PG-13'],
  ['Orbitfall', ['sci-fi', 'action'], 141, 8.1, 'PG-13'],
  ['Paper Lanterns', ['animation', 'family'], 96, 7.2, 'G'],
  ['Night Shift at Rook Street', ['thriller', 'crime'], 112, 7.5, 'R'],
  ['Grandma Goes North', ['comedy', 'family'], 101, 6.9, 'PG'],
  ['Salt and Ember', ['drama'], 133, 8.3, 'R'],
  ['The Quiet Engine', ['documentary'], 88, 7.9, 'G'],
  ['Kites Over Lagos', ['comedy', 'drama'], 109, 7.4, 'PG'],
  ['Hollow Crown Rising', ['fantasy', 'adventure'], 152, 7.1, 'PG-13'],
  ['Second Serve', ['sports', 'drama'], 117, 6.8, 'PG'],
  ['Under the Glass Sea', ['sci-fi', 'mystery'], 126, 7.6, 'PG-13'],
  ['Mona and the Mountain', ['animation', 'adventure'], 92, 7.7, 'G'],
];

/** About 150 characters, like the default scenario's synopses. */
function synopsis(title: string, genres: string[]): string {
  const text = `${title}: a ${genres.join(' and ')} story about a stubborn family, a promise made long ago and one night when everything has to be decided at once.`;
  return text.slice(0, 150);
}

function movieItems(): Item[] {
  return MOVIES.map(([title, genres, durationMinutes, rating, ageRating], i) => ({
    id: `m${i + 1}`,
    value: title,
    isDisabled: false,
    title,
    genre: genres[0] ?? '',
    genres,
    durationMinutes,
    rating,
    ageRating,
    synopsis: synopsis(title, genres),
  }));
}

/** The movie stage as a host shows it: 12 movies, nothing chosen or modified yet. */
function movieStage(): UiSpec {
  const items = movieItems();
  return {
    stage: 'movie',
    title: 'Choose a movie',
    description: 'Movies showing this week near you.',
    items,
    visibleItems: items,
    state: { booking: {} },
    modification: {},
    display: { component: 'buttonGroup', valueField: 'value' },
  };
}

function chat(): ChatEntry[] {
  const at = (minute: number) => `2026-11-21T18:${String(minute).padStart(2, '0')}:00.000Z`;
  return [
    { id: 'msg-1', role: 'system', text: 'Welcome! Let us find you a movie.', timestamp: at(0), stage: 'movie' },
    {
      id: 'msg-2',
      role: 'participant',
      text: 'Something for the whole family, please.',
      timestamp: at(1),
      stage: 'movie',
    },
    {
      id: 'msg-3',
      role: 'agent',
      text: 'Paper Lanterns and Mona and the Mountain are rated G.',
      timestamp: at(1),
      stage: 'movie',
    },
    { id: 'msg-4', role: 'participant', text: 'Paper Lanterns sounds good.', timestamp: at(2), stage: 'movie' },
  ];
}

const MARK = '__bench_id__';

/**
 * Serializes an envelope through `createMessage`, which validates the payload, and returns it as
 * a function of its request id. The text is in the relay's own key order (the parsed payload,
 * then `envelopeText`'s `v, type, id, replyTo, payload`), so the relay forwards it byte for byte.
 */
function template<T extends MessageType>(type: T, payload: PayloadInputOf<T>, idKey: 'id' | 'replyTo') {
  const text = JSON.stringify(createMessage(type, payload, { [idKey]: MARK }));
  const [head, tail, extra] = text.split(`"${MARK}"`);
  if (tail === undefined || extra !== undefined) throw new Error(`cannot template ${type}`);
  return (id: string): string => `${head}"${id}"${tail}`;
}

/** The frames of one tool round trip, pre-serialized so the load generator only fills in ids. */
export interface BenchFrames {
  /** Agent → relay → host. */
  toolCall(id: string): string;
  /** Host → relay → agent, answering `replyTo`. */
  toolResult(replyTo: string): string;
  /** Host → relay → agent, pushed after every tool result. */
  stateUpdated: string;
}

export function buildFrames(): BenchFrames {
  const uiSpec = movieStage();
  return {
    toolCall: template(
      'tool.call',
      { toolName: 'select', params: { itemId: 'm3' }, reason: 'The participant asked for Paper Lanterns.' },
      'id',
    ),
    // As Usher's hosts send it: the uiSpec goes once, in the state.updated that follows.
    toolResult: template('tool.result', { ok: true, toolName: 'select' }, 'replyTo'),
    stateUpdated: JSON.stringify(
      createMessage('state.updated', {
        source: 'agent',
        uiSpec,
        messageHistory: chat(),
        toolSchema: allToolDefinitions(),
      }),
    ),
  };
}

/** Frame sizes in bytes, with a request id as long as the bench's typical `c12345`. */
export function frameSizes(frames: BenchFrames) {
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
  return {
    toolCall: bytes(frames.toolCall('c12345')),
    toolResult: bytes(frames.toolResult('c12345')),
    stateUpdated: bytes(frames.stateUpdated),
  };
}
