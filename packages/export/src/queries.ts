/**
 * The SQL that turns the study logs (`raw_records`, from logs.ts) and the registry's rows into
 * the export's tables. Each statement is one step; they run in order (export.ts).
 */

/** This study's sessions: each log file whose first `study.task` record names the study. */
export const SESSIONS = (studyId: string) => `
  CREATE TABLE sessions AS
  SELECT file, session_id, (payload->>'participantId') AS participant_id, (payload->>'conditionId') AS condition_id,
         (payload->>'taskId') AS task_id, ts AS started_at,
         coalesce(CAST(json_extract(payload, '$.pilot') AS VARCHAR) = 'true', false) AS pilot
  FROM (
    SELECT file, arg_min(session_id, event_index) AS session_id, arg_min(payload, event_index) AS payload,
           arg_min(ts, event_index) AS ts
    FROM raw_records WHERE type = 'study.task' GROUP BY file)
  WHERE (payload->>'studyId') = ${studyId}
    AND (payload->>'participantId') IS NOT NULL AND (payload->>'taskId') IS NOT NULL`;

/** The payload's fields the tables need, read in one pass (a field of another type becomes NULL). */
const PAYLOAD_FIELDS = JSON.stringify({
  toolName: 'VARCHAR',
  source: 'VARCHAR',
  text: 'VARCHAR',
  ok: 'BOOLEAN',
  reason: 'VARCHAR',
  action: { toolName: 'VARCHAR' },
  uiSpec: {
    stage: 'VARCHAR',
    state: {
      booking: {
        movie: { id: 'VARCHAR' },
        theater: { id: 'VARCHAR' },
        date: 'VARCHAR',
        showing: { id: 'VARCHAR' },
        seats: 'JSON',
        tickets: 'JSON',
      },
    },
  },
});

/**
 * Every record of this study's sessions, with whose task it is, what tool it names and who did
 * it (the events table's \`actor\`, README "Data dictionary"), and the payload's fields. The
 * payload itself stays in \`log_rows\` (\`rid\` points to it): it is the bulk of the logs, copied once, into the events table.
 */
export const RECORDS = `
  CREATE TABLE records AS
  WITH r AS (
    SELECT *, try(json_transform(payload, '${PAYLOAD_FIELDS}')) AS p,
           -- Who sent the latest tool call: a state.updated from the agent's side is that caller's.
           last_value(CASE WHEN type = 'tool.call' AND direction = 'in' THEN peer END IGNORE NULLS)
             OVER (PARTITION BY file ORDER BY event_index ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS caller
    FROM raw_records
  )
  SELECT s.participant_id, s.condition_id, s.task_id, s.session_id, s.started_at AS session_started_at, s.pilot,
         r.rid, r.file, r.event_index, r.ts, r.direction, r.type, r.message_id, r.reply_to, r.peer,
         r.p.ok AS ok, r.p.reason AS reason, r.p.uiSpec.stage AS stage, r.p.uiSpec.state.booking AS booking,
         CASE WHEN r.type = 'state.updated' THEN r.p.source END AS source,
         CASE WHEN r.type = 'user.message' THEN r.p.text END AS said,
         CASE
           WHEN r.type IN ('tool.call', 'tool.result', 'participant.action') THEN r.p.toolName
           WHEN r.type = 'state.updated' THEN r.p.action.toolName
         END AS tool_name,
         CASE
           WHEN r.direction = 'in' THEN
             CASE WHEN starts_with(coalesce(r.peer, ''), 'experimenter-') THEN 'experimenter' ELSE 'agent' END
           WHEN r.type IN ('participant.action', 'user.message') THEN 'participant'
           WHEN r.type = 'state.updated' THEN
             CASE r.p.source
               WHEN 'user' THEN 'participant'
               WHEN 'agent' THEN
                 CASE WHEN starts_with(coalesce(r.caller, ''), 'experimenter-') THEN 'experimenter' ELSE 'agent' END
               ELSE 'host'
             END
           WHEN r.direction = 'out' THEN 'host'
           WHEN r.type LIKE 'study.%' OR r.type = 'agent.manifest' THEN 'server'
           WHEN r.type = 'agent.mistake' THEN 'agent'
           ELSE 'relay'
         END AS actor
  FROM r JOIN sessions s USING (file)`;

/**
 * The page's state after each \`state.updated\`: the stage and the booking summary's parts, one
 * column each (seats and tickets as JSON text, NULL when empty), numbered in task order:
 * sessions by start, records by index.
 */
export const STATES = `
  CREATE TABLE states AS
  SELECT participant_id, task_id, rid, ts, actor, tool_name, session_started_at, file, event_index,
         row_number() OVER (PARTITION BY participant_id, task_id ORDER BY session_started_at, file, event_index) AS k,
         stage IS NULL AS no_spec, stage,
         booking.movie.id AS movie, booking.theater.id AS theater, booking.date AS date, booking.showing.id AS showing,
         nullif(CAST(booking.seats AS VARCHAR), '[]') AS seats,
         nullif(CAST(booking.tickets AS VARCHAR), '[]') AS tickets
  FROM records WHERE type = 'state.updated'`;

const PARTS = ['movie', 'theater', 'date', 'showing', 'seats', 'tickets'] as const;

/**
 * Overrides (README "Data dictionary"): a participant's `select` or `setQuantity` that changed
 * a part of the booking (movie, theater, date, showing, seats, tickets) whose value just before
 * was set by the agent. Per part: did this state change it, what was it before, and who made
 * the change that set that earlier value.
 */
export const OVERRIDES = `
  CREATE TABLE overrides AS
  WITH changes AS (
    SELECT *, ${PARTS.map((p) => `${p} IS DISTINCT FROM lag(${p}) OVER w AS c_${p}, lag(${p}) OVER w AS p_${p}`).join(',\n           ')}
    FROM states WHERE NOT no_spec
    WINDOW w AS (PARTITION BY participant_id, task_id ORDER BY k)
  ), setters AS (
    SELECT *, ${PARTS.map((p) => `last_value(CASE WHEN c_${p} THEN actor END IGNORE NULLS) OVER w AS s_${p}`).join(',\n           ')}
    FROM changes
    WINDOW w AS (PARTITION BY participant_id, task_id ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
  )
  SELECT participant_id, task_id, count(*) AS overrides
  FROM setters
  WHERE actor = 'participant' AND tool_name IN ('select', 'setQuantity')
    AND (${PARTS.map((p) => `(c_${p} AND p_${p} IS NOT NULL AND s_${p} = 'agent')`).join(' OR ')})
  GROUP BY ALL`;

/**
 * Bookings submitted: a state without a booking stage right after one on the confirm stage (the
 * engine's submit). The booking is the summary the confirm stage showed; the last one counts.
 */
export const SUBMITS = `
  CREATE TABLE submits AS
  WITH o AS (
    SELECT *, lag(stage) OVER w AS prev_stage, lag(rid) OVER w AS prev_rid
    FROM states WINDOW w AS (PARTITION BY participant_id, task_id ORDER BY k)
  ), last AS (
    SELECT participant_id, task_id, count(*) AS bookings, arg_max(prev_rid, k) AS prev_rid,
           arg_max(actor, k) AS submitted_by, arg_max(ts, k) AS submitted_at
    FROM o WHERE no_spec AND prev_stage = 'confirm'
    GROUP BY ALL
  )
  SELECT last.participant_id, last.task_id, bookings, submitted_by, submitted_at,
         CAST(json_extract(r.payload, '$.uiSpec.state.booking') AS VARCHAR) AS booking
  FROM last JOIN log_rows r ON r.rowid = last.prev_rid`;

/** Agent tool calls (not chat) that got no successful `tool.result`, per participant task. */
export const AGENT_FAILURES = `
  CREATE TABLE agent_failures AS
  WITH calls AS (
    SELECT c.participant_id, c.task_id,
           bool_or(coalesce(r.type = 'tool.result' AND r.ok, false)) AS ok
    FROM records c LEFT JOIN records r ON r.file = c.file AND r.reply_to = c.message_id AND r.direction = 'out'
    WHERE c.type = 'tool.call' AND c.actor = 'agent' AND coalesce(c.tool_name, '') <> 'postMessage'
    GROUP BY c.participant_id, c.task_id, c.file, c.event_index
  )
  SELECT participant_id, task_id, count(*) FILTER (WHERE NOT ok) AS agent_actions_failed FROM calls GROUP BY ALL`;

/** What each participant task's records add up to. */
export const TASK_FACTS = `
  CREATE TABLE task_facts AS
  SELECT participant_id, task_id,
         count(DISTINCT file) AS sessions,
         bool_or(pilot) AS pilot,
         string_agg(DISTINCT session_id, ' ' ORDER BY session_id) AS session_ids,
         min(ts) FILTER (WHERE type = 'study.task') AS started_at,
         max(ts) FILTER (WHERE type = 'study.task-ended') AS ended_at,
         max(ts) AS last_event_at,
         arg_max(reason, ts) FILTER (WHERE type = 'study.task-ended') AS end_reason,
         count(*) FILTER (WHERE type = 'user.message') AS messages_from_participant,
         count(*) FILTER (WHERE (type = 'agent.message' OR (type = 'tool.call' AND tool_name = 'postMessage'))
                            AND actor = 'agent') AS messages_from_agent,
         count(*) FILTER (WHERE (type = 'agent.message' OR (type = 'tool.call' AND tool_name = 'postMessage'))
                            AND actor = 'experimenter') AS messages_from_experimenter,
         count(*) FILTER (WHERE type = 'tool.call' AND actor = 'agent' AND coalesce(tool_name, '') <> 'postMessage')
           AS agent_actions,
         count(*) FILTER (WHERE type = 'tool.call' AND actor = 'experimenter' AND coalesce(tool_name, '') <> 'postMessage')
           AS experimenter_actions,
         count(*) FILTER (WHERE type = 'participant.action') AS participant_actions,
         count(*) AS events
  FROM records GROUP BY participant_id, task_id`;

/**
 * The agent's manifest of each participant task: its first session's \`agent.manifest\` (the
 * condition's agent as the study ran it; supervisor/manifest.ts in @usher/study-host).
 */
export const MANIFESTS = `
  CREATE TABLE manifests AS
  SELECT r.participant_id, r.task_id,
         arg_min(CAST(l.payload AS VARCHAR), (r.session_started_at, r.file, r.event_index)) AS payload,
         count(DISTINCT l.payload->>'hash') AS manifests
  FROM records r JOIN log_rows l ON l.rowid = r.rid
  WHERE r.type = 'agent.manifest' AND r.direction = 'internal'
  GROUP BY ALL`;

/** A mistake's \`chosen\` as the SQL below reads it. */
const MISTAKE_FIELDS = JSON.stringify({
  mistakeId: 'VARCHAR',
  kind: 'VARCHAR',
  chosen: { showing: 'VARCHAR', date: 'VARCHAR', seats: ['VARCHAR'] },
});

/**
 * Scripted mistakes (README "Data dictionary", \`mistakes_*\`): each \`agent.mistake\` of a task, and
 * whether it was caught before submitting: when a booking was submitted after it, the first such
 * booking no longer holds the mistaken choice; when none was, the participant's own action changed
 * the booking away from it. A booking holds a \`later-showing\` while its showing is the one chosen,
 * a \`next-day\` while its day is, and \`seats-apart\` while its seats are those chosen.
 */
export const MISTAKES = `
  CREATE TABLE mistakes AS
  WITH m AS (
    SELECT r.participant_id, r.task_id, r.session_started_at, r.file, r.event_index,
           try(json_transform(l.payload, '${MISTAKE_FIELDS}')) AS p
    FROM records r JOIN log_rows l ON l.rowid = r.rid
    WHERE r.type = 'agent.mistake' AND r.direction = 'internal'
  ), placed AS (
    -- The states before the mistake: those after it are the ones that can catch it.
    SELECT m.*, coalesce(max(s.k), 0) AS k_before
    FROM m LEFT JOIN states s ON s.participant_id = m.participant_id AND s.task_id = m.task_id
      AND (s.session_started_at, s.file, s.event_index) < (m.session_started_at, m.file, m.event_index)
    GROUP BY ALL
  ), st AS (
    SELECT *, lag(stage) OVER w AS prev_stage, lag(showing) OVER w AS prev_showing, lag(date) OVER w AS prev_date,
           lag(seats) OVER w AS prev_seats
    FROM states WINDOW w AS (PARTITION BY participant_id, task_id ORDER BY k)
  ), judged AS (
    SELECT placed.participant_id, placed.task_id, placed.session_started_at, placed.file, placed.event_index,
           p.mistakeId AS mistake_id, p.kind AS kind,
           -- The first booking submitted after the mistake: does its confirm stage still hold the choice?
           (SELECT CASE p.kind
                     WHEN 'later-showing' THEN st.prev_showing IS NOT DISTINCT FROM p.chosen.showing
                     WHEN 'next-day' THEN st.prev_date IS NOT DISTINCT FROM p.chosen.date
                     ELSE list_sort(coalesce(try(json_transform(st.prev_seats, '["VARCHAR"]')), []))
                          = list_sort(coalesce(p.chosen.seats, []))
                   END
            FROM st WHERE st.participant_id = placed.participant_id AND st.task_id = placed.task_id
              AND st.k > placed.k_before AND st.no_spec AND st.prev_stage = 'confirm'
            ORDER BY st.k LIMIT 1) AS held_at_submit,
           -- Or, with nothing submitted after it, a state the participant caused that no longer holds it.
           EXISTS (SELECT 1 FROM st WHERE st.participant_id = placed.participant_id AND st.task_id = placed.task_id
              AND st.k > placed.k_before AND st.actor = 'participant' AND NOT st.no_spec
              AND NOT CASE p.kind
                        WHEN 'later-showing' THEN st.showing IS NOT DISTINCT FROM p.chosen.showing
                        WHEN 'next-day' THEN st.date IS NOT DISTINCT FROM p.chosen.date
                        ELSE list_sort(coalesce(try(json_transform(st.seats, '["VARCHAR"]')), []))
                             = list_sort(coalesce(p.chosen.seats, []))
                      END) AS changed_by_participant
    FROM placed
  )
  SELECT *, CASE WHEN held_at_submit IS NOT NULL THEN NOT held_at_submit ELSE changed_by_participant END AS caught
  FROM judged`;

/** The mistakes of each participant task, counted and named (in the order they were made). */
export const TASK_MISTAKES = `
  CREATE TABLE task_mistakes AS
  SELECT participant_id, task_id, count(*) AS mistakes_made, count(*) FILTER (WHERE caught) AS mistakes_caught,
         string_agg(mistake_id, ' ' ORDER BY session_started_at, file, event_index) AS mistake_ids,
         string_agg(mistake_id, ' ' ORDER BY session_started_at, file, event_index) FILTER (WHERE caught)
           AS mistakes_caught_ids
  FROM mistakes GROUP BY ALL`;
