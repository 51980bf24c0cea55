/**
 * The figures on screen, as the server drew them (SVG and HTML from `GET /_sim/view`), with the
 * lane arrows and the project menu they come with.
 */
import { laneRange } from './laneWindow.js';
import type { PageElements } from './pageElements.js';
import type { ViewAnswer } from './wire.js';

type FigureElements = Pick<
  PageElements,
  | 'events'
  | 'lanes'
  | 'cu'
  | 'activity'
  | 'operations'
  | 'metrics'
  | 'lane-range'
  | 'lanes-up'
  | 'lanes-down'
  | 'project'
>;

/** Puts the figures of a view on the page. */
export class FiguresView {
  constructor(readonly page: FigureElements) {}

  /** Shows the log's length. */
  events(events: number): void {
    this.page.events.textContent = `${events} events`;
  }

  /** Shows `view`'s figures, and adds the projects the menu does not list yet. */
  show(view: ViewAnswer): void {
    const page = this.page;
    this.events(view.events);
    // Drawn by the server's report renderers, which escape what they draw.
    page.lanes.innerHTML = view.lanes.figure;
    page.cu.innerHTML = view.cu;
    page.activity.innerHTML = view.activity;
    page.operations.innerHTML = view.operations;
    page.metrics.innerHTML = view.metrics;
    page['lane-range'].textContent = laneRange(view.lanes);
    page['lanes-up'].disabled = view.lanes.first === 0;
    page['lanes-down'].disabled = view.lanes.first + view.lanes.count >= view.lanes.total;
    const known = new Set([...page.project.options].map((option) => option.value));
    for (const project of view.projects)
      if (!known.has(project.id))
        page.project.add(new Option(`${project.name} (${project.id})`, project.id));
  }
}
