import { type Message, type MessageOf, MODIFICATION_TOOLS } from '@usher/protocol';
import { clickedIds } from '../perception/chosen.ts';
import { EMPTY_CONTEXT, type PerceivedContext, perceive } from '../perception/perceive.ts';

/** The page-tuning tools a study's condition may withhold (`pageTools: false`). */
const PAGE_TOOLS: ReadonlySet<string> = new Set(MODIFICATION_TOOLS);

/** A frame that carries the host's state: what {@link HostView.perceive} takes in. */
export type StateFrame = MessageOf<'snapshot.state'> | MessageOf<'state.updated'> | MessageOf<'user.message'>;

/** What the view needs from the agent. */
export interface ViewPort {
  /** Whether the page-tuning tools may be offered to the planner (`AgentOptions.pageTools`). */
  pageTools: boolean;
  /** Told of each new context, before any wait sees it (the wishes and working memory follow it). */
  saw(context: PerceivedContext): void;
  /** Stopped, or the instruction being carried out was cancelled: the waits here end. */
  halted(): boolean;
  /** The state must be read again: a wait for a change ends, as that change may never be seen. */
  needsResync(): boolean;
}

/**
 * What the agent sees of the host: the context perceived from its frames, the choices on screen
 * that are the participant's own, and counts of changes the loop compares before and after it
 * plans. It also holds the one wait on the next frames ({@link waitFor}, {@link untilParticipant}).
 */
export class HostView {
  context: PerceivedContext = EMPTY_CONTEXT;
  /** Items the participant chose themselves: the agent leaves them as they are. */
  readonly participantChoices = new Set<string>();
  /** Set while something waits on the host's frames: called after each one, and on {@link wake}. */
  private waiter: (() => void) | null = null;
  /**
   * How many times the host's state changed other than by the echo of the agent's own chat
   * message: a plan made before such a change is made again.
   */
  private changeCount = 0;
  /** How many times the participant wrote or acted: what a wait for them waits on. */
  private participantEvents = 0;
  /** The host's last frame was a participant's chat message (its echo in a state update comes next). */
  private lastWasParticipantMessage = false;

  constructor(private readonly port: ViewPort) {}

  get changes(): number {
    return this.changeCount;
  }

  /** Takes in a frame the host pushed: counts it, keeps the participant's own choices, and perceives it. */
  receive(message: Message): void {
    if (message.type === 'user.message' || (message.type === 'state.updated' && message.payload.source === 'user')) {
      this.participantEvents += 1;
    }
    const ownChatEcho =
      message.type === 'state.updated' && message.payload.source === 'agent' && message.payload.action === undefined;
    // The page's update right after a participant's chat message shows that message (a host sends
    // the two together): the message counted as the change, and the update arriving a moment later
    // (while the agent waits its pace to act on a yes) must not make it plan, and ask, again.
    const participantChatEcho =
      message.type === 'state.updated' &&
      message.payload.source === 'user' &&
      message.payload.action === undefined &&
      this.lastWasParticipantMessage;
    this.lastWasParticipantMessage = message.type === 'user.message';
    if ((message.type === 'state.updated' && !ownChatEcho && !participantChatEcho) || message.type === 'user.message') {
      this.changeCount += 1;
    }
    if (message.type === 'state.updated') {
      this.keepChoices(message);
      this.perceive(message);
    } else if (message.type === 'user.message') {
      this.perceive(message);
    }
  }

  /** Reads a frame into the context, and lets a wait see it. */
  perceive(event: StateFrame): PerceivedContext {
    this.context = perceive(this.context, event);
    if (!this.port.pageTools) {
      // The condition does not offer the page-tuning tools: the planner never sees them.
      this.context = { ...this.context, toolSchema: this.context.toolSchema.filter((t) => !PAGE_TOOLS.has(t.name)) };
    }
    this.port.saw(this.context);
    this.wake();
    return this.context;
  }

  /** Lets the wait in progress, if any, look again (a frame, new wishes, a resync due, a stop). */
  wake(): void {
    this.waiter?.();
  }

  /** Resolves with the first context that passes `test`, or null after `timeoutMs`, on a resync due, or when halted. */
  waitFor(test: (context: PerceivedContext) => boolean, timeoutMs: number): Promise<PerceivedContext | null> {
    if (test(this.context)) return Promise.resolve(this.context);
    // Already told the state must be read again (a frame it could not use came with the reply).
    if (this.port.needsResync()) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        resolve(null);
      }, timeoutMs);
      this.waiter = () => {
        const halted = this.port.halted();
        // A frame that could not be used (or a new host) means the change may never be seen: stop waiting for it.
        if (this.port.needsResync()) {
          clearTimeout(timer);
          this.waiter = null;
          return resolve(null);
        }
        if (!halted && !test(this.context)) return;
        clearTimeout(timer);
        this.waiter = null;
        resolve(halted ? null : this.context);
      };
    });
  }

  /** Waits for the participant to write or act, or for `otherwise` to hold, a resync to be due, or a stop. */
  untilParticipant(otherwise: () => boolean): Promise<void> {
    const before = this.participantEvents;
    return new Promise((resolve) => {
      this.waiter = () => {
        const spoke = this.participantEvents > before || otherwise();
        if (!this.port.halted() && !spoke && !this.port.needsResync()) return;
        this.waiter = null;
        resolve();
      };
    });
  }

  /** The participant's own choices, from a state change they made (before it is perceived). */
  private keepChoices(message: MessageOf<'state.updated'>): void {
    const action = message.payload.action;
    if (message.payload.source === 'user' && action === undefined) {
      // A host that does not name the participant's call: what changed on screen is theirs.
      const { added, removed } = clickedIds(this.context.uiSpec, message.payload.uiSpec);
      for (const id of added) this.participantChoices.add(id);
      for (const id of removed) this.participantChoices.delete(id);
    }
    if (
      message.payload.source === 'user' &&
      action?.toolName === 'select' &&
      typeof action.params.itemId === 'string'
    ) {
      const id = action.params.itemId;
      const seats = message.payload.uiSpec?.state.selectedList;
      // A seat the participant clicked twice is theirs to drop again.
      if (seats && !seats.includes(id)) this.participantChoices.delete(id);
      else this.participantChoices.add(id);
    }
  }
}
