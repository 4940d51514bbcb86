import { Agent } from '@usher/agent';
import { defaultScenario, parseScenario } from '@usher/booking';
import type { UiSpec } from '@usher/protocol';
import { bookThrough, callTool, TestClient } from '@usher/server/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { launchChromium, openPage, openStudyPage, screenshot, startPageServer, VIEWPORTS } from './browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

let roomSeq = 0;
const nextRoom = () => `e2e-${process.pid}-${++roomSeq}`;

async function stageTitle(page: Page): Promise<string> {
  return (await page.getByTestId('stage-title').textContent()) ?? '';
}

/** Waits until the page shows `stage` (its uiSpec title, as the engine names it). */
async function onStage(page: Page, title: string): Promise<void> {
  await page.getByTestId('stage-title').filter({ hasText: title }).waitFor();
}

const TITLES = {
  movie: 'Choose a movie',
  theater: 'Choose a theater',
  date: 'Choose a date',
  time: 'Choose a showtime',
  seat: 'Choose your seats',
  ticket: 'Choose tickets',
  confirm: 'Confirm your booking',
} as const;

/** Joins the page's room as an agent and starts a study session. */
async function agentIn(url: string, room: string): Promise<TestClient> {
  const agent = await TestClient.join(url, 'agent', room);
  const started = await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' });
  expect(started.type).toBe('session.started');
  return agent;
}

async function currentSpec(agent: TestClient): Promise<UiSpec> {
  return (await agent.request('snapshot.get')).payload.uiSpec as UiSpec;
}

/** Clicks the first enabled item on the page's current stage. */
async function clickFirstItem(page: Page): Promise<void> {
  await page.locator('[data-testid^="item-"]:not([disabled])').first().click();
}

describe.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)('a participant on %s', (viewport) => {
  it('books a ticket by clicking through every stage, and the summary is right', async () => {
    const { server, pageUrl } = await startPageServer();
    const room = nextRoom();
    const page = await openStudyPage(browser, pageUrl(room), viewport);
    const agent = await agentIn(server.url, room);

    for (const stage of ['movie', 'theater', 'date', 'time'] as const) {
      await onStage(page, TITLES[stage]);
      await screenshot(page, `${viewport}-${stage}`);
      await clickFirstItem(page);
      await page.getByTestId('next').click();
    }
    await onStage(page, TITLES.seat);
    const spec = await currentSpec(agent);
    const free = spec.visibleItems.filter((seat) => !seat.isDisabled);
    const pair = free.find(
      (seat, i) => free[i + 1]?.row === seat.row && Number(free[i + 1]?.number) === Number(seat.number) + 1,
    );
    const seatIds = [pair?.id, free[free.indexOf(pair as never) + 1]?.id] as string[];
    for (const id of seatIds) await page.getByTestId(`item-${id}`).click();
    await screenshot(page, `${viewport}-seat`);
    await page.getByTestId('next').click();

    await onStage(page, TITLES.ticket);
    await page.getByTestId('inc-adult').click();
    await page.getByTestId('inc-child').click();
    await page.getByTestId('qty-child').filter({ hasText: '1' }).waitFor();
    await screenshot(page, `${viewport}-ticket`);
    await page.getByTestId('next').click();

    await onStage(page, TITLES.confirm);
    const summary = (await currentSpec(agent)).state.booking;
    expect(summary?.seats).toEqual(seatIds);
    const total = (await page.getByTestId('summary-total').textContent()) ?? '';
    expect(total.replace(/[^\d.]/g, '')).toBe(summary?.total?.toFixed(2));
    await screenshot(page, `${viewport}-confirm`);
    await page.getByTestId('next').click();

    const confirmation = page.getByTestId('confirmation');
    await confirmation.waitFor();
    const after = await agent.request('snapshot.get');
    expect(after.payload.uiSpec).toBeNull();
    const receipt = (after.payload.messageHistory as Array<{ role: string; text: string }>).find(
      (m) => m.role === 'system',
    );
    const reference = /USH-[A-Z0-9]+/.exec(receipt?.text ?? '')?.[0] as string;
    expect(await confirmation.textContent()).toContain(reference);
    await screenshot(page, `${viewport}-confirmation`);

    const fromUser = agent.frames.filter((f) => f.type === 'state.updated' && f.payload.source === 'user');
    expect(fromUser.length).toBeGreaterThanOrEqual(12);
  });
});

describe('an agent over a real socket', () => {
  it('drives the page through a booking; its modifications and steps show as they happen', async () => {
    const { server, pageUrl } = await startPageServer();
    const room = nextRoom();
    const page = await openStudyPage(browser, pageUrl(room));
    const agent = await agentIn(server.url, room);

    const all = (await currentSpec(agent)).visibleItems;
    const comedies = all.filter((m) => m.genre === 'Comedy');
    await callTool(
      agent,
      'filter',
      { field: 'genre', operator: 'eq', value: 'Comedy' },
      'The participant wants a comedy',
    );
    await page.getByTestId('filter-notice').waitFor();
    expect(await page.locator('[data-testid^="item-"]').count()).toBe(comedies.length);

    await callTool(agent, 'sort', { field: 'rating', order: 'desc' }, 'Best rated first');
    await page.getByTestId('sort-notice').waitFor();
    const best = [...comedies].sort((a, b) => Number(b.rating) - Number(a.rating))[0]?.id as string;
    expect(await page.locator('[data-testid^="item-"]').first().getAttribute('data-testid')).toBe(`item-${best}`);

    await callTool(agent, 'highlight', { itemIds: [best], style: 'recommended' }, 'The best-rated comedy');
    await page
      .locator(`[data-highlight="recommended"]`)
      .filter({ has: page.getByTestId(`item-${best}`) })
      .or(page.locator(`[data-testid="item-${best}"][data-highlight="recommended"]`))
      .first()
      .waitFor();
    await callTool(agent, 'augment', { items: [{ itemId: best, value: 'Highest rated comedy this week' }] }, 'Say why');
    await page.getByTestId(`note-${best}`).filter({ hasText: 'Highest rated comedy this week' }).waitFor();
    await screenshot(page, 'desktop-agent-modifications');

    agent.send({ v: 'mvp-0.2', type: 'agent.message', payload: { text: 'I picked the best-rated comedy for you.' } });
    await page
      .locator('[data-testid="chat-message"][data-role="agent"]')
      .filter({ hasText: 'best-rated comedy' })
      .waitFor();

    await page.getByTestId('chat-input').fill('Sounds good, evening please');
    await page.getByTestId('chat-send').click();
    const said = await agent.waitFor((f) => f.type === 'user.message');
    expect(said.payload).toEqual({ text: 'Sounds good, evening please', stage: 'movie' });

    await callTool(agent, 'clearModification', { type: 'all' }, 'Back to the full list');
    await page.getByTestId('filter-notice').waitFor({ state: 'detached' });
    await callTool(agent, 'select', { itemId: best }, 'The highlighted comedy');
    await page.locator(`[data-testid="item-${best}"][aria-pressed="true"]`).waitFor();
    await callTool(agent, 'next', {}, 'Movie chosen');
    await onStage(page, TITLES.theater);
    await bookThrough(agent, { movie: best, seats: [], adults: 0 });
    await page.getByTestId('confirmation').waitFor();
    await screenshot(page, 'desktop-agent-booked');
  });

  it('hears the participant act in the page as state.updated from the user', async () => {
    const { server, pageUrl } = await startPageServer();
    const room = nextRoom();
    const page = await openStudyPage(browser, pageUrl(room));
    const agent = await agentIn(server.url, room);
    const movie = (await currentSpec(agent)).visibleItems[3]?.id as string;
    await page.getByTestId(`item-${movie}`).click();
    const update = await agent.waitFor((f) => f.type === 'state.updated' && f.payload.source === 'user');
    expect(update.payload.action).toEqual({ toolName: 'select', params: { itemId: movie } });
    expect((update.payload.uiSpec as UiSpec).state.selected).toBe(movie);
  });
});

describe('the page', () => {
  it('keeps the stage, the selections and the chat across a reload', async () => {
    const { server, pageUrl } = await startPageServer();
    const room = nextRoom();
    const page = await openStudyPage(browser, pageUrl(room));
    await clickFirstItem(page);
    await page.getByTestId('next').click();
    await onStage(page, TITLES.theater);
    const theater = page.locator('[data-testid^="item-"]:not([disabled])').nth(1);
    const theaterId = await theater.getAttribute('data-testid');
    await theater.click();
    await page.getByTestId('chat-input').fill('Near the station if possible');
    await page.getByTestId('chat-send').click();
    await page.locator('[data-testid="chat-message"][data-role="participant"]').waitFor();

    // An agent in the room hears the state the reloaded page announces when it joins again.
    const agent = await TestClient.join(server.url, 'agent', room);
    await page.reload();
    await onStage(page, TITLES.theater);
    await page.locator(`[data-testid="${theaterId}"][aria-pressed="true"]`).waitFor();
    expect(await page.getByTestId('chat-message').allTextContents()).toEqual([
      expect.stringContaining('Near the station if possible'),
    ]);
    await page.getByTestId('connection').and(page.locator('[data-state="open"]')).waitFor();
    const announced = await agent.waitFor((f) => f.type === 'state.updated' && f.payload.source === 'host');
    expect((announced.payload.uiSpec as UiSpec).stage).toBe('theater');
  });

  it('opens one socket under StrictMode and never sends the backendData canary', async () => {
    const CANARY = 'CANARY-web-5d1e-backend-only';
    const raw = JSON.parse(JSON.stringify(defaultScenario()));
    for (const list of [raw.movies, raw.theaters, raw.showings]) for (const r of list) r.internal = { code: CANARY };
    const { server, pageUrl } = await startPageServer({ scenario: parseScenario(raw) });
    const room = nextRoom();
    const page = await openPage(browser);
    const sockets: string[] = [];
    const sent: string[] = [];
    page.on('websocket', (ws) => {
      sockets.push(ws.url());
      ws.on('framesent', (frame) => sent.push(String(frame.payload)));
    });
    await page.goto(pageUrl(room, 'dev=1'));
    await page.getByTestId('connection').and(page.locator('[data-state="open"]')).waitFor();
    const agent = await agentIn(server.url, room);
    await bookThrough(agent);
    await page.getByTestId('confirmation').waitFor();

    expect(sockets).toHaveLength(1);
    expect(server.relay.status()).toEqual([expect.objectContaining({ room, host: true })]);
    expect(sent.length).toBeGreaterThan(20);
    expect(sent.join('\n')).not.toContain(CANARY);
    expect(JSON.stringify(agent.frames)).not.toContain(CANARY);
  });

  it('shows the developer panel with the uiSpec, the toolSchema, backendData and the frames', async () => {
    const { pageUrl } = await startPageServer();
    const page = await openStudyPage(browser, pageUrl(nextRoom()));
    expect(await page.getByTestId('dev-panel').count()).toBe(0);
    await page.getByTestId('dev-toggle').click();
    const panel = page.getByTestId('dev-panel');
    await panel.waitFor();
    for (const tab of ['uiSpec', 'toolSchema', 'backendData', 'frames']) {
      await panel.getByRole('tab', { name: new RegExp(tab, 'i') }).click();
      expect((await panel.textContent())?.length).toBeGreaterThan(20);
    }
    await screenshot(page, 'desktop-dev-panel');
    expect(await stageTitle(page)).toBe(TITLES.movie);
  });

  it('can be used with the keyboard alone', async () => {
    const { pageUrl } = await startPageServer();
    const page = await openStudyPage(browser, pageUrl(nextRoom()));
    const focusedTestId = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
    async function tabTo(match: (testId: string) => boolean): Promise<string> {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        const testId = await focusedTestId();
        if (match(testId)) return testId;
      }
      throw new Error('Tab never reached the control');
    }
    const movie = await tabTo((id) => id.startsWith('item-'));
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="${movie}"][aria-pressed="true"]`).waitFor();
    await tabTo((id) => id === 'next');
    await page.keyboard.press('Enter');
    await onStage(page, TITLES.theater);
  });

  it('fits a 360 px wide phone, and names every control for a screen reader', async () => {
    const { server, pageUrl } = await startPageServer();
    const room = nextRoom();
    const page = await openStudyPage(browser, pageUrl(room), 'phone');
    const agent = await agentIn(server.url, room);
    const unnamed = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('button, input, textarea, select, [role="tab"]')]
          .filter(
            (el) =>
              !(
                el.getAttribute('aria-label') ||
                el.textContent?.trim() ||
                el.getAttribute('title') ||
                (el as HTMLInputElement).labels?.length
              ),
          )
          .map((el) => el.outerHTML.slice(0, 80)),
      );
    for (const stage of ['movie', 'theater', 'date', 'time', 'seat', 'ticket', 'confirm'] as const) {
      await onStage(page, TITLES[stage]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      expect(await unnamed()).toEqual([]);
      if (stage === 'confirm') break;
      const spec = await currentSpec(agent);
      if (stage === 'seat') {
        const seat = spec.visibleItems.find((i) => !i.isDisabled);
        expect(await page.getByTestId(`item-${seat?.id}`).getAttribute('aria-label')).toMatch(/seat/i);
        await callTool(agent, 'select', { itemId: seat?.id }, 'one seat');
      } else if (stage === 'ticket') {
        await callTool(agent, 'setQuantity', { typeId: 'adult', quantity: 1 }, 'one adult');
      } else {
        await callTool(agent, 'select', { itemId: spec.visibleItems.find((i) => !i.isDisabled)?.id }, 'first');
      }
      await callTool(agent, 'next', {}, 'on');
    }
  });

  it('lets a participant ask the agent in the chat, and the agent books it on the page', async () => {
    const { server, pageUrl } = await startPageServer();
    const room = nextRoom();
    const page = await openPage(browser);
    await page.goto(pageUrl(room));
    const agent = new Agent({ url: server.url, room, study: 'pilot-01', participant: 'P07', mode: 'autopilot' });
    const running = agent.run();
    onTestFinished(() => agent.stop());
    await page
      .locator('[data-testid="chat-message"][data-role="agent"]')
      .filter({ hasText: 'What would you like to see' })
      .waitFor();
    await page.getByTestId('chat-input').fill('Two adults for Orbital Drift tomorrow evening in IMAX, seats together');
    await page.getByTestId('chat-send').click();
    await page.locator('[data-testid="chat-message"][data-role="agent"]').filter({ hasText: 'Understood' }).waitFor();
    const confirmation = page.getByTestId('confirmation');
    await confirmation.waitFor({ timeout: 15_000 });
    expect(await confirmation.textContent()).toContain('Orbital Drift');
    expect((await running).status).toBe('done');
    await screenshot(page, 'desktop-agent-chat-booking');
  });
});

describe('the page behind access control', () => {
  it('joins with the study link’s token and an agent with its credential can work beside it; a forged link says so', async () => {
    const secret = new TextEncoder().encode('a-page-test-secret-of-enough-length-0123456789abcdef');
    const { server, pageUrl } = await startPageServer({ secret });
    const room = nextRoom();
    const caps = server.capabilities as NonNullable<typeof server.capabilities>;
    const token = await caps.issue({ kind: 'host', room });
    const page = await openStudyPage(browser, pageUrl(room, `token=${token}`));
    await onStage(page, TITLES.movie);
    const agent = await TestClient.join(server.url, 'agent', room, await caps.issue({ kind: 'agent' }));
    expect((await agent.request('session.start', { studyId: 'pilot-01', participantId: 'P07' })).type).toBe(
      'session.started',
    );
    expect((await currentSpec(agent)).stage).toBe('movie');

    const forged = await openPage(browser);
    await forged.goto(pageUrl(nextRoom(), `token=${token.slice(0, -4)}AAAA`));
    await forged.getByRole('heading', { name: 'This study link does not work' }).waitFor();
    await screenshot(forged, 'desktop-forged-link');
  });
});
