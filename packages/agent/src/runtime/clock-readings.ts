import {
  type PreferenceContext,
  type PreferenceModel,
  type Understanding,
  updatePreferences,
} from '../preferences/index.ts';

/** The most participant messages kept to be read again (a study's opening exchange is a few). */
const MAX_TEXTS = 20;

/**
 * The participant's words the agent had to read against the machine's clock, because the host had
 * not shown the study's day yet (no `meta.today`, no dated chat): kept, with what the agent could
 * see then, so that once a day is seen they are read again against it ("tomorrow" is the study's
 * tomorrow, not the machine's).
 */
export class ClockReadings {
  private base: PreferenceModel | null = null;
  private readonly texts: Array<{ text: string; context: PreferenceContext }> = [];

  /** Notes one reading against the clock; `before` is the wishes before it. */
  note(before: PreferenceModel, text: string, context: PreferenceContext): void {
    this.base ??= before;
    if (this.texts.length < MAX_TEXTS) this.texts.push({ text, context });
  }

  /**
   * The same words read again against `today`, from the wishes before the first of them; null
   * when none was read against the clock, or they were read against this very day.
   */
  reread(today: string, keep = false): Understanding | null {
    const base = this.base;
    // Kept when the day is only a guess (a chat's timestamps): a surer day reads them again.
    const texts = keep ? [...this.texts] : this.texts.splice(0);
    if (!keep) this.base = null;
    if (!base || texts.every((t) => t.context.today === today)) return null;
    let understanding: Understanding | null = null;
    let model = base;
    for (const { text, context } of texts) {
      const read = updatePreferences(model, text, { ...context, today });
      if (read.unparsed) continue;
      model = read.model;
      understanding = read;
    }
    return understanding;
  }
}
