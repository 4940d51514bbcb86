/** The SQL of the export's tables as written out (README "Data dictionary" defines every column). */
import { MAX_EVENT_PAYLOAD_CHARS } from './logs.ts';

export const PARTICIPANT_TASKS = `
  SELECT pt.study_id, pt.participant_id, pt.external_id, pt.condition_id, c.agent, pt.task_id, pt.task_index,
         coalesce(f.sessions, 0) AS sessions, f.session_ids,
         coalesce(sc.success, false) AS success, sc.failed_wish, sc.failed_wishes,
         sc.hard_met, t.hard_total, sc.soft_met, t.soft_total, sc.soft_score,
         coalesce(sb.bookings, 0) > 0 AS booked, coalesce(sb.bookings, 0) AS bookings, sb.submitted_by, sb.submitted_at,
         coalesce(uc.unconfirmed_submits, 0) AS unconfirmed_submits,
         f.started_at, f.ended_at,
         round(epoch(coalesce(f.ended_at, f.last_event_at) - f.started_at), 3) AS time_on_task_s,
         coalesce(f.messages_from_participant, 0) AS messages_from_participant,
         coalesce(f.messages_from_agent, 0) AS messages_from_agent,
         coalesce(f.agent_actions, 0) AS agent_actions,
         coalesce(af.agent_actions_failed, 0) AS agent_actions_failed,
         coalesce(f.participant_actions, 0) AS participant_actions,
         coalesce(f.experimenter_actions, 0) AS experimenter_actions,
         coalesce(f.messages_from_experimenter, 0) AS messages_from_experimenter,
         coalesce(o.overrides, 0) AS overrides,
         coalesce(tm.mistakes_made, 0) AS mistakes_made, coalesce(tm.mistakes_caught, 0) AS mistakes_caught,
         tm.mistake_ids, tm.mistakes_caught_ids,
         m.payload->>'hash' AS agent_manifest_hash,
         m.payload->'manifest'->>'usher' AS agent_usher_version,
         m.payload->'manifest'->>'planner' AS agent_planner,
         m.payload->'manifest'->>'reader' AS agent_reader,
         m.payload->'manifest'->'model'->>'name' AS agent_model,
         TRY_CAST(m.payload->'manifest'->>'paceMs' AS BIGINT) AS agent_pace_ms,
         m.payload->'manifest'->>'guard' AS agent_guard,
         TRY_CAST(m.payload->'manifest'->>'pageTools' AS BOOLEAN) AS agent_page_tools,
         m.payload->'manifest'->'behaviour'->>'hash' AS agent_behaviour_hash,
         coalesce(m.manifests, 0) > 1 AS agent_manifest_changed,
         CAST(m.payload->'manifest' AS VARCHAR) AS agent_manifest,
         coalesce(f.events, 0) AS events,
         CASE
           WHEN f.participant_id IS NULL THEN CASE WHEN pt.status = 'dropped' THEN 'dropped' ELSE 'not-started' END
           WHEN f.ended_at IS NOT NULL THEN
             CASE regexp_extract(f.end_reason, ':\\s*(submitted|done|gave-up)\\s*$', 1)
               WHEN 'submitted' THEN 'booked' WHEN 'done' THEN 'done' WHEN 'gave-up' THEN 'gave-up' ELSE 'ended' END
           WHEN pt.status = 'dropped' THEN 'dropped'
           ELSE 'unfinished'
         END AS outcome,
         coalesce(f.pilot, pp.pilot, false) AS pilot
  FROM plan_tasks pt
  LEFT JOIN task_defs t USING (task_id)
  LEFT JOIN condition_defs c USING (condition_id)
  LEFT JOIN task_facts f USING (participant_id, task_id)
  LEFT JOIN agent_failures af USING (participant_id, task_id)
  LEFT JOIN submits sb USING (participant_id, task_id)
  LEFT JOIN confirmations uc USING (participant_id, task_id)
  LEFT JOIN successes sc USING (participant_id, task_id)
  LEFT JOIN overrides o USING (participant_id, task_id)
  LEFT JOIN task_mistakes tm USING (participant_id, task_id)
  LEFT JOIN manifests m USING (participant_id, task_id)
  LEFT JOIN pilots pp USING (participant_id)
  ORDER BY pt.created_at, pt.participant_id, pt.task_index`;

/**
 * The collaboration measures, one row per participant task (as \`participant_tasks\`, whose
 * columns it repeats to be read alone), from @usher/study's \`measureTask\` (collaboration.ts);
 * empty for a task never started, and each measure empty where the condition has no such feature.
 */
export const COLLABORATION = (measureColumns: readonly string[]) => `
  SELECT pt.study_id, pt.participant_id, pt.external_id, pt.condition_id, pt.agent, pt.task_id, pt.task_index, pt.pilot,
         pt.outcome, pt.booked, pt.success, pt.time_on_task_s, pt.agent_actions, pt.participant_actions, pt.experimenter_actions,
         ${measureColumns.map((c) => `CASE WHEN pt.sessions > 0 THEN m.${c} END AS ${c}`).join(', ')}
  FROM out_participant_tasks pt LEFT JOIN measures m USING (participant_id, task_id)`;

/** The per-condition summary (collaboration.ts, @usher/study's \`summariseConditions\`). */
export const CONDITIONS = (studyId: string) => `SELECT ${studyId} AS study_id, * FROM condition_summary`;

/** Participants any of whose task sessions were a pilot's (\`usher pilot\`): their \`study.task\` said \`pilot: true\`. */
export const PILOTS = `
  CREATE TABLE pilots AS SELECT participant_id, bool_or(pilot) AS pilot FROM sessions GROUP BY participant_id`;

/**
 * What a `state.updated` payload loses in `events.csv`: the page's lists (`uiSpec.items`,
 * `uiSpec.visibleItems`) and the tools' schemas (`toolSchema`), 99% of the logs' bytes and the same
 * from one state to the next. The stage, the booking summary and the rest stay; `events.parquet`
 * and the raw logs keep the payload whole (README "Data dictionary").
 */
const STATE_TRIM = `'{"toolSchema": null, "uiSpec": {"items": null, "visibleItems": null}}'`;

/**
 * The events, sorted once and materialized once with two payload columns: \`payload\` whole (for
 * Parquet) and \`payload_csv\` (for CSV); {@link EVENTS_CSV} and {@link EVENTS_PARQUET} pick one.
 */
export const EVENTS = `
  SELECT p.study_id, r.session_id, r.participant_id, p.external_id, r.condition_id, r.task_id,
         r.event_index, r.ts AS timestamp, r.direction, r.type, r.tool_name, r.actor, r.peer, r.message_id, r.reply_to,
         CASE WHEN strlen(l.payload) <= ${MAX_EVENT_PAYLOAD_CHARS} THEN CAST(l.payload AS VARCHAR) END AS payload,
         CASE WHEN strlen(l.payload) > ${MAX_EVENT_PAYLOAD_CHARS} THEN NULL
              WHEN r.type = 'state.updated' AND json_type(l.payload) = 'OBJECT' THEN
                CAST(json_merge_patch(l.payload, CASE WHEN json_type(l.payload, '$.uiSpec') = 'OBJECT' THEN ${STATE_TRIM}
                                                      ELSE '{"toolSchema": null}' END) AS VARCHAR)
              ELSE CAST(l.payload AS VARCHAR) END AS payload_csv,
         strlen(l.payload) AS payload_bytes,
         regexp_extract(r.file, '[^/]*$') AS source_file
  FROM records r JOIN log_rows l ON l.rowid = r.rid LEFT JOIN participants_in p ON p.participant_id = r.participant_id
  ORDER BY r.session_started_at, r.file, r.event_index`;

const EVENT_COLUMNS = `study_id, session_id, participant_id, external_id, condition_id, task_id, event_index, timestamp,
  direction, type, tool_name, actor, peer, message_id, reply_to`;
export const EVENTS_CSV = `${EVENT_COLUMNS}, payload_csv AS payload, payload_bytes, source_file`;
export const EVENTS_PARQUET = `${EVENT_COLUMNS}, payload, payload_bytes, source_file`;

export const PARTICIPANTS = `
  SELECT study_id, participant_id, external_id, prolific_pid, prolific_study_id, prolific_session_id,
         participant_param, condition_id, conditions, task_order, status, task_index, tasks_total, created_at, updated_at,
         coalesce(pp.pilot, false) AS pilot
  FROM participants_in LEFT JOIN pilots pp USING (participant_id) ORDER BY created_at, participant_id`;

export const EXPIRED_ARRIVALS = `
  SELECT study_id, condition_id, arrivals FROM expired ORDER BY condition_id NULLS FIRST`;

export const LOG_PROBLEMS = `
  SELECT regexp_extract(file, '[^/]*$') AS source_file, line AS source_line, bytes, problem
  FROM log_problems ORDER BY file, line`;
