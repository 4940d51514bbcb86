import { checkBooking, type Scenario, type Story, type SubmittedBooking } from '@usher/booking';
import { EMPTY_MODEL, type Understanding, updatePreferences } from '../preferences/index.ts';
import { Agent } from '../runtime/agent.ts';
import type { AgentResult } from '../runtime/agent-options.ts';
import { feasibleOptions, isShowingLevel, minimumToolCalls, showingSoftScore } from './optimum.ts';
import { type SimulatedParticipant, simulatedParticipant } from './participant.ts';
import type { SuiteEntry } from './scenario.ts';

/**
 * A relay with the headless host on a world. The runner does not start servers itself (the agent
 * package reaches the host through the relay only): the test passes `startTestServer`, the script
 * `startServer`, both from `@usher/server`.
 */
export interface SuiteHost {
  /** `http://host:port` of the relay. */
  url: string;
  room: string;
  submitted(): SubmittedBooking | null;
  close(): Promise<void>;
}
export type StartHost = (world: Scenario) => Promise<SuiteHost>;

/** What one scenario gave, judged. */
export interface ScenarioReport {
  file: string;
  name: string;
  world: string;
  expect: 'book' | 'blocked';
  story: Story;
  knownBug?: string;
  status: AgentResult['status'];
  message: string;
  /** What the extractor reads from the story's text (the agent's starting wishes). */
  understood: string;
  booking: SubmittedBooking | null;
  /** book: a booking exists and every hard constraint holds. blocked: status blocked, nothing booked, `why` named. */
  passed: boolean;
  /** The hard constraints the booking breaks (`kind: detail`). */
  failedHard: string[];
  /** How many showings can hold a booking meeting every hard constraint. */
  feasibleShowings: number;
  /**
   * book: the booked showing reaches the best showing-level soft score of the feasible showings;
   * null when the story has no showing-level soft constraint or nothing was booked.
   */
  best: boolean | null;
  /** The booked showing's showing-level soft score (with its cheapest fitting seats) and the best one. */
  softScore: number | null;
  bestSoftScore: number | null;
  toolCalls: number;
  /** How many times the simulated participant said "no" with a correction before the end. */
  corrections: number;
  /** What the participant said each time. */
  correctionTexts: string[];
  /** The fewest tool calls for the agent's booking (for the cheapest best option when it booked nothing). */
  minimumToolCalls: number | null;
  problems: string[];
}

export interface RunOptions {
  /** Stop the agent after this long (it waits for the participant when it does not return). */
  timeoutMs?: number;
  /** Where the agent says what it could not use or had to assume (its stderr on the command line). */
  log?: (line: string) => void;
  /** The machine's clock as the agent sees it (read only when a host shows no study day). */
  now?: () => Date;
  /**
   * Who answers the agent's question before it submits: the simulated participant, who reads the
   * pending booking in Usher's catalog, by default. A host with records of its own (the second
   * host) needs one that reads its records, or one that says yes and leaves judging to the end.
   */
  participant?: (world: Scenario, story: Story) => SimulatedParticipant;
}

/** The simulated participant corrects the agent at most this many times; a third "no" ends the run. */
export const MAX_CORRECTIONS = 2;

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * What the preference extractor reads from a text in a world: its `today`, every movie title (also
 * those without showings) and genre. The suite's stories must say no more and no less than this.
 */
export function understandingOf(world: Scenario, text: string): Understanding {
  return updatePreferences(EMPTY_MODEL, text, {
    today: world.today,
    knownTitles: world.movies.map((m) => m.title),
    knownGenres: [...new Set(world.movies.flatMap((m) => m.genres))],
  });
}

/** Runs the agent on one scenario (autopilot, `goal` = the story's text) and judges the outcome. */
export async function runScenario(
  entry: SuiteEntry,
  startHost: StartHost,
  options: RunOptions = {},
): Promise<ScenarioReport> {
  const { scenario, world } = entry;
  const { story } = scenario;
  const host = await startHost(world);
  const participant = (options.participant ?? simulatedParticipant)(world, story);
  let corrections = 0;
  let result: AgentResult;
  let booking: SubmittedBooking | null;
  try {
    const agent = new Agent({
      url: host.url,
      room: host.room,
      study: 'suite',
      participant: 'P-suite',
      mode: 'autopilot',
      returnWhenBlocked: true,
      ...(options.log && { log: options.log }),
      ...(options.now && { now: options.now }),
    });
    // The participant is asked before every submit: "yes" when the booking keeps their story,
    // otherwise "no" with a correction, which the agent hears as its next instruction.
    const confirmSubmit = participant.confirm.bind(participant);
    const timer = setTimeout(() => agent.stop(), options.timeoutMs ?? 15_000);
    try {
      await agent.start();
      result = await agent.instruct({ text: story.text, confirmSubmit });
      let calls = result.toolCalls;
      while (result.status === 'declined' && corrections < MAX_CORRECTIONS) {
        corrections += 1;
        result = await agent.instruct({ text: participant.lastCorrection() ?? 'No.', confirmSubmit });
        calls += result.toolCalls;
      }
      result = { ...result, toolCalls: calls };
    } finally {
      clearTimeout(timer);
      await agent.close();
    }
    booking = host.submitted();
  } finally {
    await host.close();
  }

  const understood = understandingOf(world, story.text).summary;
  const options_ = feasibleOptions(world, story);
  const bestSoftScore = options_.length ? round2(Math.max(...options_.map((o) => o.softScore))) : null;
  const problems: string[] = [];
  let failedHard: string[] = [];
  let passed: boolean;
  let best: boolean | null = null;
  let softScore: number | null = null;

  const prefers = scenario.expect === 'book' && story.soft.some(isShowingLevel);
  if (booking) {
    const check = checkBooking(world, booking, story);
    failedHard = check.hard.filter((h) => !h.ok).map((h) => `${h.constraint.kind}: ${h.detail}`);
    const mine = options_.find((o) => o.showing.id === booking?.showingId);
    softScore = round2(mine ? mine.softScore : showingSoftScore(world, booking, story));
    if (prefers) best = mine !== undefined && bestSoftScore !== null && softScore >= bestSoftScore;
  }
  if (scenario.expect === 'book') {
    if (result.status !== 'done') problems.push(`status ${result.status}: ${result.message}`);
    if (!booking) problems.push('nothing booked');
    if (failedHard.length) problems.push(`hard constraints broken: ${failedHard.join('; ')}`);
    if (options_.length === 0) problems.push('the world has no booking meeting the hard constraints');
    passed = problems.length === 0;
  } else {
    const why = scenario.why ?? '';
    if (result.status !== 'blocked') problems.push(`status ${result.status}, wanted blocked`);
    if (booking) problems.push(`booked ${booking.showingId} (${booking.seats.map((s) => s.id).join(', ')})`);
    if (!result.message.toLowerCase().includes(why.toLowerCase()))
      problems.push(`the message does not name "${why}": ${result.message}`);
    if (options_.length > 0) problems.push(`the world has ${options_.length} showing(s) meeting the hard constraints`);
    passed = problems.length === 0;
  }
  const cheapestBest = options_
    .filter((o) => bestSoftScore !== null && round2(o.softScore) >= bestSoftScore)
    .map((o) => minimumToolCalls(o.booking));
  return {
    file: entry.file,
    name: scenario.name,
    world: scenario.world,
    expect: scenario.expect,
    story,
    ...(scenario.knownBug && { knownBug: scenario.knownBug }),
    status: result.status,
    message: result.message,
    understood,
    booking,
    passed,
    failedHard,
    feasibleShowings: options_.length,
    best,
    softScore,
    bestSoftScore,
    toolCalls: result.toolCalls,
    corrections,
    correctionTexts: participant.corrections,
    minimumToolCalls: booking
      ? minimumToolCalls(booking)
      : cheapestBest.length
        ? Math.min(...cheapestBest)
        : scenario.expect === 'blocked'
          ? 0
          : null,
    problems,
  };
}

/** Runs scenarios one after another. */
export async function runSuite(
  entries: readonly SuiteEntry[],
  startHost: StartHost,
  options: RunOptions = {},
): Promise<ScenarioReport[]> {
  const reports: ScenarioReport[] = [];
  for (const entry of entries) reports.push(await runScenario(entry, startHost, options));
  return reports;
}
