import type { UiSpec } from '@usher/protocol';
import { describeFilter, describeSort, fieldKind, stageNoun } from './describe.ts';
import { plural } from './format.ts';
import { FilterIcon, SortIcon } from './icons.tsx';

interface Props {
  spec: UiSpec;
  can: (tool: string) => boolean;
  act: (tool: string, params?: Record<string, unknown>) => void;
}

/** Says in words what a filter or a sort did to the list, with a way back to the full list. */
export function ModificationNotice({ spec, can, act }: Props) {
  const { filter, sort } = spec.modification;
  const filters = filter ?? [];
  if (filters.length === 0 && !sort) return null;
  const currency = spec.state.booking?.currency;
  const noun = stageNoun(spec.stage);
  const canClear = can('clearModification');
  return (
    <div className="notices">
      {filters.length > 0 && (
        <div className="notice notice--filter" data-testid="filter-notice">
          <FilterIcon size={16} className="notice__icon" />
          <p className="notice__text">
            <strong>Filter on: </strong>
            {filters.map((f) => describeFilter(f, fieldKind(spec.items, f.field), currency)).join(' and ')}
            <span className="notice__count">
              {' · '}
              showing {spec.visibleItems.length} of {plural(spec.items.length, noun)}
            </span>
          </p>
          <button
            type="button"
            className="button button--small"
            data-testid="clear-filter"
            disabled={!canClear}
            onClick={() => act('clearModification', { type: 'filter' })}
          >
            Show all
          </button>
        </div>
      )}
      {sort && (
        <div className="notice notice--sort" data-testid="sort-notice">
          <SortIcon size={16} className="notice__icon" />
          <p className="notice__text">{describeSort(sort, fieldKind(spec.items, sort.field))}</p>
          <button
            type="button"
            className="button button--small button--quiet"
            disabled={!canClear}
            onClick={() => act('clearModification', { type: 'sort' })}
          >
            Default order
          </button>
        </div>
      )}
    </div>
  );
}
