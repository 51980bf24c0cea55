/** The feed on screen: the lines the filter shows, newest first, each with its time. */
import { FeedLines, LINES_SHOWN, lineClass } from './feedLines.js';
import { lineTime } from './timeText.js';
import type { FeedLine } from './wire.js';

/** The feed's list element and the lines behind it. */
export class FeedView {
  readonly lines = new FeedLines();

  /** `start` tells when the run started (the lines' times count from it once it is known). */
  constructor(
    readonly list: HTMLOListElement,
    readonly start: () => number | undefined,
  ) {}

  /** Draws the list again from the lines kept. */
  render(): void {
    this.list.replaceChildren(...this.lines.shown().map((line) => this.#element(line)));
  }

  /** Adds `line` as the newest, on top of the list if the filter shows it. */
  add(line: FeedLine): void {
    if (!this.lines.add(line)) return;
    this.list.prepend(this.#element(line));
    while (this.list.childElementCount > LINES_SHOWN) this.list.lastElementChild?.remove();
  }

  #element(line: FeedLine): HTMLLIElement {
    const li = document.createElement('li');
    li.className = lineClass(line);
    const time = document.createElement('time');
    time.textContent = lineTime(line.at, this.start());
    li.append(time, line.text);
    return li;
  }
}
