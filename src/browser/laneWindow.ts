/**
 * Which compute lanes are on screen: a window of `count` lanes from `first`, of `total`, moved by
 * the arrows and the wheel, and sized to the window's height when the page starts.
 */

/** Height of a lane on screen, in CSS pixels. */
const LANE_PX = 34;

/** The lanes on screen. */
export class LaneWindow {
  first = 0;
  count = 12;
  total = 0;

  /** As many lanes as half a window `height` pixels tall holds, from 4 to 40. */
  fit(height: number): void {
    this.count = Math.max(4, Math.min(40, Math.floor((height * 0.5) / LANE_PX)));
  }

  /** Moves the window by `by` lanes, within the lanes there are; whether it moved. */
  move(by: number): boolean {
    const first = Math.max(0, Math.min(this.first + by, this.total - this.count));
    if (first === this.first) return false;
    this.first = first;
    return true;
  }

  /** Whether there are lanes off screen to scroll to. */
  scrolls(): boolean {
    return this.total > this.count;
  }
}

/** `computes 1-12 of 340`, of the lanes a view drew. */
export function laneRange(lanes: { first: number; count: number; total: number }): string {
  return lanes.total === 0
    ? 'no computes yet'
    : `computes ${lanes.first + 1}-${lanes.first + lanes.count} of ${lanes.total}`;
}
