import { createHash } from 'node:crypto';
import { type AgentBehaviour, agentBehaviour, type LlmConfig } from '@usher/agent';
import { type AcceptedChange, type Condition, mistakeId, type Study, type StudyRegistry } from '@usher/study';

/**
 * The agent a condition runs, frozen for a study (issue 28, "A frozen agent"): every study log
 * starts with the manifest of its condition (`agent.manifest`), the registry keeps the study's,
 * and `usher serve --study` refuses to go on with a study whose agent changed since its first
 * participant unless told to (`--accept-agent-change`). Fields of the agent a condition lacks
 * (no agent, or an experimenter as the agent) are null.
 */
export interface AgentManifest {
  /** Usher's version. */
  usher: string;
  agent: Condition['agent'];
  /** `rules` or `llm` (with the rules as fallback). */
  planner: Condition['planner'] | null;
  /** What reads the participant's words: the study's agents read them by the rules. */
  reader: 'rules' | null;
  /** The language model of an `llm` planner, and how it is asked; never its key. */
  model: { name: string; baseUrl: string; temperature: number; timeoutMs: number; contextTokens: number } | null;
  paceMs: number | null;
  /** How much the agent must ask (the condition's `guard`): `never`, `before-submit` or `each-step`. */
  guard: Condition['guard'] | null;
  pageTools: boolean | null;
  /** The scripted mistakes of the condition, each with its id. */
  mistakes: Array<{ task: string; id: string; stage: string; kind: string; minutes?: number }>;
  /** The hash of the files that shape the agent's behaviour (`@usher/agent`'s `agentBehaviour`). */
  behaviour: AgentBehaviour | null;
  /** The agent draws no random numbers (ties break in catalog order; the model is asked at temperature 0): null. */
  seed: null;
}

/** A study's agents: each condition's manifest, and the hash of the whole. */
export interface StudyManifest {
  manifest: { conditions: Record<string, AgentManifest> };
  hash: string;
}

/** What a manifest is made from besides the study file: the running Usher and its configuration. */
export interface ManifestSource {
  usher: string;
  /** The language model `USHER_LLM_*` configure, or null. */
  llm: LlmConfig | null;
  behaviour: AgentBehaviour;
}

/** The temperature the LLM planner asks at (`planning/llm/client.ts`). */
const LLM_TEMPERATURE = 0;

export function conditionManifest(condition: Condition, source: ManifestSource): AgentManifest {
  const agent = condition.agent === 'assist' || condition.agent === 'autopilot';
  const llm = agent && condition.planner === 'llm' ? source.llm : null;
  return {
    usher: source.usher,
    agent: condition.agent,
    planner: agent ? condition.planner : null,
    reader: agent ? 'rules' : null,
    model: llm && {
      name: llm.model,
      baseUrl: llm.baseUrl,
      temperature: LLM_TEMPERATURE,
      timeoutMs: llm.timeoutMs,
      contextTokens: llm.contextTokens,
    },
    paceMs: agent ? condition.paceMs : null,
    guard: condition.agent === 'none' ? null : condition.guard,
    pageTools: agent ? condition.pageTools : null,
    mistakes: condition.mistakes.map((m) => ({
      task: m.task,
      id: mistakeId(m),
      stage: m.stage,
      kind: m.kind,
      ...(m.minutes !== undefined && { minutes: m.minutes }),
    })),
    behaviour: agent ? source.behaviour : null,
    seed: null,
  };
}

export function studyManifest(study: Pick<Study, 'conditions'>, source: ManifestSource): StudyManifest {
  const manifest = {
    conditions: Object.fromEntries(study.conditions.map((c) => [c.id, conditionManifest(c, source)])),
  };
  return { manifest, hash: hashOf(manifest) };
}

/** SHA-256 (hex) of a value's canonical JSON (keys sorted). */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Each field that differs between two manifests, as `field: before → after` (`conditions.autopilot.paceMs: 800 → 400`). */
export function manifestChanges(before: unknown, after: unknown): string[] {
  const flat = (value: unknown, path: string, out: Map<string, string>) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) flat(v, path ? `${path}.${k}` : k, out);
    } else {
      out.set(path, JSON.stringify(value) ?? 'null');
    }
    return out;
  };
  const a = flat(before, '', new Map());
  const b = flat(after, '', new Map());
  const fields = [...new Set([...a.keys(), ...b.keys()])].sort();
  return fields
    .filter((f) => a.get(f) !== b.get(f))
    .map((f) => `${f}: ${a.get(f) ?? '(none)'} → ${b.get(f) ?? '(none)'}`);
}

/** The study's agent changed since its first participant, and no one said to go on. */
export class AgentChangedError extends Error {
  override readonly name = 'AgentChangedError';
  constructor(
    readonly studyId: string,
    readonly changes: string[],
  ) {
    super(
      `the agent of study "${studyId}" changed since its first participant:\n` +
        changes.map((c) => `  ${c}`).join('\n') +
        '\nParticipants so far met the agent as it was: put the study file (and Usher) back as they were, or start ' +
        'with --accept-agent-change to go on with the changed agent (the change is recorded in the registry and in every study log from now on).',
    );
  }
}

/** The manifest a study runs with, and the change accepted to run it, if any (both go into every study log). */
export interface SettledManifest extends StudyManifest {
  acceptedChange: AcceptedChange | null;
}

/**
 * Checks the study's agent against the one the registry holds and records it: before the first
 * participant it simply replaces it; after, the same manifest goes on, and a changed one throws
 * {@link AgentChangedError} naming each changed field unless `accept`, when the change is
 * recorded. A registry from before manifests gets the current one.
 */
export function settleManifest(
  registry: StudyRegistry,
  studyId: string,
  current: StudyManifest,
  options: { accept: boolean; now: Date },
): SettledManifest {
  const stored = registry.agentManifests(studyId).at(-1);
  if (stored?.hash === current.hash) return { ...current, acceptedChange: stored.acceptedChange };
  const started = registry.hasParticipants(studyId);
  if (!stored || !started) {
    registry.recordAgentManifest(studyId, { ...current, acceptedChange: null }, options.now);
    return { ...current, acceptedChange: null };
  }
  const changes = manifestChanges(stored.manifest, current.manifest);
  if (!options.accept) throw new AgentChangedError(studyId, changes);
  const acceptedChange: AcceptedChange = { from: stored.hash, changes, at: options.now.toISOString() };
  registry.recordAgentManifest(studyId, { ...current, acceptedChange }, options.now);
  return { ...current, acceptedChange };
}

/** The `agent.manifest` record of a session in `conditionId`: its condition's manifest, that manifest's hash, and the change accepted. */
export function manifestRecord(settled: SettledManifest, conditionId: string): Record<string, unknown> | null {
  const manifest = settled.manifest.conditions[conditionId];
  if (!manifest) return null;
  return {
    manifest,
    hash: hashOf(manifest),
    studyHash: settled.hash,
    ...(settled.acceptedChange && { acceptedChange: settled.acceptedChange }),
  };
}

/** What a server is told of its study's agents besides the study file. */
export interface StudyAgentOptions {
  /** The language model `USHER_LLM_*` configure, or null. */
  llm: LlmConfig | null;
  /** Go on with an agent changed since the first participant (`--accept-agent-change`), recording the change. */
  accept: boolean;
}

/**
 * {@link settleManifest} for the study a server is about to run, with the agent this process
 * runs: what `usher serve --study` does before it starts.
 */
export function settleStudyManifest(
  registry: StudyRegistry,
  study: Pick<Study, 'id' | 'conditions'>,
  options: StudyAgentOptions & { usher: string; now: Date },
): SettledManifest {
  const current = studyManifest(study, { usher: options.usher, llm: options.llm, behaviour: agentBehaviour() });
  return settleManifest(registry, study.id, current, options);
}
