import type { Capabilities, Capability, ClientView, Relay, RelayLimits, RoomHooks } from '@usher/relay';
import { FlushError, type RegistryFlush, type Study, type StudyRegistry } from '@usher/study';
import type { Hono, MiddlewareHandler } from 'hono';
import { StudyConsole } from './console/study-console.ts';
import { StudyLogIndex } from './console/study-logs.ts';
import { mountConsoleRoutes } from './http/console-routes.ts';
import { mountExportRoutes } from './http/export-routes.ts';
import { mountStudyRoutes } from './http/study-routes.ts';
import { AnswersLog } from './study/answers-log.ts';
import { ArrivalExpiry } from './study/arrival-expiry.ts';
import { pageAbsence } from './study/page-presence.ts';
import { ParticipantControls } from './study/participant-controls.ts';
import { type PilotRun, StudyMode, type TaskHooks } from './study/study-mode.ts';
import { manifestRecord, type SettledManifest } from './supervisor/manifest.ts';

export interface StudyHostOptions {
  study: Study;
  registry: StudyRegistry;
  /** The relay the study's rooms are on: the study host opens and closes their sessions, and answers its {@link RoomHooks}. */
  relay: Relay;
  /** The study logs' folder: the questionnaire log goes beside them, and the console replays them. */
  logsDir: string;
  /** The registry's file: the experimenter's export download reads it (none without). */
  registryPath?: string;
  /** Told when a participant's task starts and ends (the agent supervisor staffs it). */
  hooks?: TaskHooks;
  /** The relay's limits a study counts (when it opens rooms, admits arrivals, removes those who never consent). */
  limits: Pick<
    RelayLimits,
    'maxRooms' | 'maxTasksPerAddress' | 'idleSessionMs' | 'arrivalRetentionMs' | 'admissionsPerMinute'
  >;
  now: () => Date;
  warn: (line: string) => void;
  /** The study's agent manifest as settled with the registry (`settleManifest`): every study log starts with its condition's. */
  manifest?: SettledManifest;
  /** A pilot's run (`usher pilot`): seeded, and its records marked. */
  pilot?: PilotRun;
  /** How the questionnaire log is flushed to disk (`fdatasync` on libuv's pool); tests pass one that holds or fails. */
  answersFlush?: RegistryFlush;
}

/** What the routes need of the server's HTTP side. */
export interface StudyRouteDeps {
  /** Checks credentials; null in open mode. */
  capabilities: Capabilities | null;
  /** Where a request comes from, and whether over HTTPS. */
  client: ClientView;
  /**
   * The participant's page (the built `index.html`), or null when none is built: the study link
   * answers a browser with it at once instead of redirecting to it.
   */
  participantPage?: () => Promise<string | null>;
}

type Fail = (code: string, message: string, status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503) => Response;

/**
 * A study run on the relay (`usher serve --study`): study mode (the participant's flow), the
 * experimenter's console, the removal of arrivals who never consent, and their HTTP routes. It
 * implements the relay's {@link RoomHooks}: a page joining its room, a session closed for
 * idleness, a room's news; the relay knows of the study nothing else.
 */
export class StudyHost implements RoomHooks {
  readonly mode: StudyMode;
  readonly console: StudyConsole;
  /** The participant's controls over the agent beside them (the supervisor the console holds). */
  readonly controls: ParticipantControls;
  private readonly expiry: ArrivalExpiry;
  /** The questionnaire log: its records are flushed as the registry's writes are (group commit). */
  private readonly answersLog: AnswersLog;
  /** A flush of the registry failed (said once). */
  private flushFailed = false;

  constructor(private readonly options: StudyHostOptions) {
    const { study, registry, relay, logsDir, limits, now, warn } = options;
    // A restart reopens a task only when its page may still be there, as its study logs tell.
    const logs = new StudyLogIndex(logsDir, study.id);
    this.answersLog = new AnswersLog(logsDir, study.id, options.answersFlush);
    const mended = this.answersLog.mend(registry, study.id);
    if (mended > 0)
      warn(
        `study: ${mended} questionnaire${mended > 1 ? 's' : ''} the registry holds ${mended > 1 ? 'were' : 'was'} missing from ${this.answersLog.path} (the server stopped before its flush); added from the registry`,
      );
    this.mode = new StudyMode(
      study,
      registry,
      relay,
      now,
      options.hooks,
      this.answersLog,
      {
        maxRooms: limits.maxRooms,
        maxTasksPerAddress: limits.maxTasksPerAddress,
        idleSessionMs: limits.idleSessionMs,
      },
      (participant) => pageAbsence(logs, logsDir, participant, now()),
      (conditionId) => (options.manifest ? manifestRecord(options.manifest, conditionId) : null),
      options.pilot ?? null,
    );
    this.console = new StudyConsole(this.mode, relay, logsDir);
    this.controls = new ParticipantControls(this.mode, relay, () => this.console.agents);
    // Arrivals who never consent are removed after arrivalRetentionMs, and counted (arrival-expiry.ts).
    this.expiry = new ArrivalExpiry(registry, study.id, limits.arrivalRetentionMs, now, warn);
    relay.attach(this);
  }

  hostJoining(room: string, address: string, uncounted: boolean): string | null {
    return this.mode.hostJoining(room, address, uncounted);
  }

  /** A participant gone long enough that their task's session closed: their agent stops too. */
  sessionIdle(room: string): void {
    this.options.hooks?.roomIdle?.(room);
  }

  roomChanged(room: string): void {
    this.console.roomChanged(room);
  }

  /**
   * Whether the agent beside the participant in `room` asks before submitting (the condition's
   * `confirmBeforeSubmit`, any condition with an agent, the wizard's experimenter included): the
   * relay then lets no agent's submit through that the participant did not confirm.
   */
  asksBeforeSubmit(room: string): boolean {
    const participant = this.mode.byRoom(room);
    const condition = participant && this.mode.conditionOf(participant);
    return condition ? condition.agent !== 'none' && condition.confirmBeforeSubmit : false;
  }

  /**
   * Whether the agent beside the participant in `room` proposes each step for their approval (the
   * condition's `guard: each-step`): the relay then lets through only the calls they approved.
   */
  approvesEachStep(room: string): boolean {
    const participant = this.mode.byRoom(room);
    const condition = participant && this.mode.conditionOf(participant);
    return condition?.guard === 'each-step';
  }

  /** The study link and the participant's API, the console's API and, with a registry file, the export download. */
  mountRoutes(app: Hono<{ Variables: { capability: Capability | null } }>, deps: StudyRouteDeps): void {
    const fail: Fail = (code, message, status) => Response.json({ error: { code, message } }, { status });
    const onDisk = this.onDisk(fail);
    for (const path of ['/s/*', '/api/participant', '/api/participant/*', '/api/console/rooms/*'])
      app.use(path, onDisk);
    mountStudyRoutes(
      app,
      this.mode,
      deps.capabilities,
      fail,
      this.options.limits.admissionsPerMinute,
      deps.client,
      deps.participantPage,
      this.controls,
    );
    mountConsoleRoutes(app, this.console, fail);
    if (this.options.registryPath) {
      mountExportRoutes(app, {
        study: this.options.study,
        registryPath: this.options.registryPath,
        logsDir: this.options.logsDir,
        warn: this.options.warn,
      });
    }
  }

  /**
   * Answers only once what was written before them is on disk: the registry's writes (a group
   * commit, `StudyRegistry.durable`), the questionnaire log's records (`AnswersLog.durable`) and
   * the study logs of the tasks ended (`Relay.studyLogsFlushed`). The study link, the participant's API and the console's actions
   * wait for it, a request that wrote nothing only while others' writes are flushed, so nothing a
   * participant or the console is shown can be lost to a crash of the machine. When a flush of the
   * registry or the questionnaire log fails, they answer `503 STORAGE_FAILED` from then on: nothing since can be promised.
   */
  private onDisk(fail: Fail): MiddlewareHandler {
    const { registry, relay, warn } = this.options;
    const answersLog = this.answersLog;
    return async (c, next) => {
      await next();
      if (c.req.method === 'GET' && c.req.path.startsWith('/api/console/')) return;
      try {
        await Promise.all([registry.durable(), answersLog.durable(), relay.studyLogsFlushed()]);
      } catch (err) {
        if (!(err instanceof FlushError)) throw err;
        if (!this.flushFailed)
          warn(
            `study: the registry or the questionnaire log could not be flushed to disk: ${err.message}; answering STORAGE_FAILED until the server is restarted`,
          );
        this.flushFailed = true;
        c.res = fail(
          'STORAGE_FAILED',
          "the study's records could not be written to disk; the researcher has been told",
          503,
        );
        // Hono keeps the headers of the answer replaced: this one is not the gzip'd view it was.
        c.res.headers.delete('Content-Encoding');
      }
    };
  }

  /** Starts removing arrivals who never consent (once now, then hourly). */
  start(): void {
    this.expiry.start();
  }

  stop(): void {
    this.expiry.stop();
  }
}
