/**
 * What the History tab reads, started as the mechanic reaches for the tab (a finger down on it, a tap),
 * while the tab's code loads: the database's code, so that the tab's live read starts as soon as the
 * tab is drawn (lib/local-query.ts), and the first page (history.ts, warmHistory).
 */
import { loadLocalStore } from '../../../lib/local-query';

export function reachForHistoryData(): void {
  void loadLocalStore();
  void import('../../../lib/entries/history').then(({ warmHistory }) => warmHistory());
}
