import type { Item, UiSpec } from '@usher/protocol';
import type { Frame, TestClient } from './test-client.ts';

/** What the scripted agent chose on its way through the stages. */
export interface Choices {
  movie?: string;
  theater?: string;
  date?: string;
  showing?: string;
  seats: string[];
  adults: number;
}

const enabled = (items: Item[]) => items.filter((item) => !item.isDisabled);

/** Two free seats side by side in one row, preferring rows away from the screen. */
export function twoAdjacentSeats(items: Item[]): [string, string] {
  const free = enabled(items).sort(
    (a, b) => Number(b.rowIndex) - Number(a.rowIndex) || Number(a.number) - Number(b.number),
  );
  for (let i = 0; i + 1 < free.length; i++) {
    const [a, b] = [free[i] as Item, free[i + 1] as Item];
    if (a.row === b.row && Number(b.number) === Number(a.number) + 1) return [a.id, b.id];
  }
  throw new Error('no two adjacent free seats');
}

/**
 * A deterministic agent for tests: it calls one tool at a time, each with a reason, and checks
 * that every call succeeds. Returns the uiSpec of the `state.updated` that follows the result
 * (a `tool.result` leaves the uiSpec out; DESIGN.md).
 */
export async function callTool(
  agent: TestClient,
  toolName: string,
  params: object,
  reason: string,
): Promise<UiSpec | null> {
  const reply = await agent.request('tool.call', { toolName, params, reason });
  if (reply.type !== 'tool.result' || reply.payload.ok !== true) {
    throw new Error(`${toolName} failed: ${JSON.stringify(reply.payload)}`);
  }
  const caused = (f: { type: string; payload: Record<string, unknown> }) =>
    f.type === 'state.updated' && f.payload.source === 'agent';
  const update = agent.frames.slice(agent.frames.indexOf(reply) + 1).find(caused) ?? (await agent.nextMatching(caused));
  return (update.payload.uiSpec ?? null) as UiSpec | null;
}

/**
 * Books from wherever the host is to the submitted booking, through tool calls alone: the first
 * enabled option on each stage, two adjacent seats, two adult tickets.
 */
export async function bookThrough(agent: TestClient, choices: Choices = { seats: [], adults: 0 }): Promise<Choices> {
  const snapshot: Frame = await agent.request('snapshot.get');
  let spec = snapshot.payload.uiSpec as UiSpec | null;
  while (spec) {
    const stage = spec.stage;
    if (stage === 'seat') {
      for (const seat of twoAdjacentSeats(spec.visibleItems)) {
        if (!spec.state.selectedList?.includes(seat))
          await callTool(agent, 'select', { itemId: seat }, `Seat ${seat} is free and next to the other`);
      }
      choices.seats = [...(((await agent.request('snapshot.get')).payload.uiSpec as UiSpec).state.selectedList ?? [])];
    } else if (stage === 'ticket') {
      choices.adults = choices.seats.length;
      await callTool(agent, 'setQuantity', { typeId: 'adult', quantity: choices.adults }, 'One adult ticket per seat');
    } else if (stage !== 'confirm' && spec.state.selected === undefined) {
      const first = enabled(spec.visibleItems)[0];
      if (!first) throw new Error(`nothing to choose on the ${stage} stage`);
      await callTool(agent, 'select', { itemId: first.id }, `${first.value} is the first available option`);
    }
    if (stage === 'movie') choices.movie = current(await agent.request('snapshot.get'));
    if (stage === 'theater') choices.theater = current(await agent.request('snapshot.get'));
    if (stage === 'date') choices.date = current(await agent.request('snapshot.get'));
    if (stage === 'time') choices.showing = current(await agent.request('snapshot.get'));
    spec = await callTool(
      agent,
      'next',
      {},
      stage === 'confirm' ? 'The summary is right; submit' : `The ${stage} is chosen`,
    );
  }
  return choices;
}

function current(snapshot: Frame): string {
  return String((snapshot.payload.uiSpec as UiSpec).state.selected);
}
