/**
 * The memory stage of the agent runtime (external-agent-runtime §2.4): working memory for the
 * current session, the episodic JSONL log of plans, actions and outcomes, and the semantic memory
 * of `SKILL.md` strategies.
 */
export * from './episode.ts';
export * from './episodic.ts';
export * from './fingerprint.ts';
export * from './read-episodes.ts';
export * from './relevance.ts';
export * from './semantic.ts';
export * from './skill-file.ts';
export * from './working.ts';
