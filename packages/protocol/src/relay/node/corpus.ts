import { readdirSync, readFileSync } from 'node:fs';
import type { ErrorCode } from '../errors.ts';

const FIXTURES = new URL('../../../fixtures/relay/', import.meta.url);

export interface AcceptedFixture {
  /** `<type>/<name>.json` */
  name: string;
  type: string;
  message: unknown;
}

export interface RejectedFixture {
  name: string;
  description: string;
  /** The frame as sent on the wire. */
  frame: string;
  expect: { code: ErrorCode; replyTo?: string };
}

/**
 * The golden corpus (`fixtures/relay/`): messages every side must accept, one folder per type, and
 * frames every side must refuse with a given code. Tests of the relay, the hosts and the agent
 * load it, so they all hold the same line.
 */
export function loadCorpus(): { accepted: AcceptedFixture[]; rejected: RejectedFixture[] } {
  const accepted: AcceptedFixture[] = [];
  const rejected: RejectedFixture[] = [];
  for (const dir of readdirSync(FIXTURES).sort()) {
    for (const file of readdirSync(new URL(`${dir}/`, FIXTURES)).sort()) {
      const data = JSON.parse(readFileSync(new URL(`${dir}/${file}`, FIXTURES), 'utf8'));
      const name = `${dir}/${file}`;
      if (dir === 'rejected') {
        const frame = 'raw' in data ? String(data.raw) : JSON.stringify(data.message);
        rejected.push({ name, description: data.description, frame, expect: data.expect });
      } else {
        accepted.push({ name, type: dir, message: data });
      }
    }
  }
  return { accepted, rejected };
}
