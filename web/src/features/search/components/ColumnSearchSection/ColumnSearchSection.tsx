import type { ReactNode } from 'react';
import { Button, Checkbox, Paper } from '@mantine/core';
import classes from './ColumnSearchSection.module.css';
import type { ColumnSearchScreen } from '../../useColumnSearchScreen';
import { ColumnSearchForm } from '../ColumnSearchForm/ColumnSearchForm';
import { ColumnSettings } from '../ColumnSettings/ColumnSettings';
import { ExportDialog } from '../../../export';
import { FacetsPanel } from '../FacetsPanel/FacetsPanel';
import { SavedSearches } from '../SavedSearches/SavedSearches';
import { SearchResults } from '../SearchResults/SearchResults';

export interface ColumnSearchSectionProps {
  screen: ColumnSearchScreen;
  /** The results table's caption. */
  caption: string;
  /** Show each row's file and sheet (general search). */
  withSource: boolean;
  /** Shown above the column inputs (the general search's file filter). */
  toolbar?: ReactNode;
  /** How many files the search covers. */
  fileCount: number;
  /** Offer pre-processing rules in the export dialog (general search; not the Authors screen). */
  preprocessing?: boolean;
}

/**
 * The search inputs of the visible columns (with Search, Clear All and Export Results), the facets,
 * the results, and the Column Settings and export dialogs, for the Search and Authors screens.
 */
export function ColumnSearchSection({
  screen,
  caption,
  withSource,
  toolbar,
  preprocessing = false,
  fileCount,
}: ColumnSearchSectionProps) {
  const { form, search, exporter } = screen;
  const copiesLeftOut = search.data?.copiesLeftOut ?? 0;
  return (
    <>
      {form.request !== null && (
        // The keyboard's way past the form: the grid takes the focus (one Tab stop, see ResultsGrid).
        <a
          href="#results"
          className={classes.skip}
          onClick={(event) => {
            event.preventDefault();
            document.querySelector<HTMLElement>('[role="grid"]')?.focus();
          }}
        >
          Skip to results
        </a>
      )}
      <Paper withBorder p="md" radius="md">
        <ColumnSearchForm
          toolbar={toolbar}
          columns={screen.visible}
          totalColumns={screen.columns.length}
          onColumnSettings={screen.settings.open}
          suggestions={screen.suggestions}
          values={form.values}
          onChange={form.setValue}
          onSubmit={screen.runSearch}
          onClear={() => {
            form.clear();
            screen.setInputs([]);
          }}
          compact={{
            added: screen.inputs,
            onAdd: (column) => screen.setInputs([...screen.inputs.filter((c) => c !== column), column]),
            allInputs: screen.allInputs,
            onAllInputs: screen.setAllInputs,
          }}
          searching={screen.loading}
          activeTerms={form.activeTerms}
          extraActions={
            <>
              <Button variant="light" onClick={exporter.open} disabled={exporter.exporting}>
                Export Results
              </Button>
              <SavedSearches
                fileType={screen.fileType}
                request={form.request}
                filter={screen.filter}
                onOpen={screen.openSaved}
              />
              <Checkbox
                label="Match accents"
                title="Off: muller also finds Müller and MÜLLER. On: accents must match."
                checked={form.request?.matchAccents ?? false}
                onChange={(event) => form.setMatchAccents(event.currentTarget.checked)}
                disabled={form.request === null}
              />
              {(form.request?.everyCopy || copiesLeftOut > 0) && (
                <Checkbox
                  label="Show every copy"
                  title="Off: a record exported twice (the same DOI or database id) is shown once, from the newest upload. On: every copy."
                  description={
                    copiesLeftOut > 0
                      ? `${copiesLeftOut.toLocaleString('en-US')} ${copiesLeftOut === 1 ? 'copy' : 'copies'} of shown records left out`
                      : undefined
                  }
                  checked={form.request?.everyCopy ?? false}
                  onChange={(event) => form.setEveryCopy(event.currentTarget.checked)}
                />
              )}
            </>
          }
        />
      </Paper>
      {/* Results first (in reading order too); the facets beside them on wide screens, below otherwise. */}
      <div className={classes.body}>
        <div className={classes.results}>
          <SearchResults
            idle={form.request === null}
            loading={screen.loading}
            data={search.data}
            error={search.error}
            columns={screen.visible}
            withSource={withSource}
            caption={caption}
            onPage={form.goToPage}
            onPageSize={form.setPageSize}
            onRetry={() => void search.refetch()}
            sort={
              form.request?.sortBy
                ? { column: form.request.sortBy, order: form.request.sortOrder ?? 'asc' }
                : null
            }
            onSort={form.sortBy}
            highlights={
              form.request
                ? { terms: form.request.searchCriteria, matchAccents: form.request.matchAccents ?? false }
                : undefined
            }
            showEmpty={screen.showEmpty}
            onShowEmpty={screen.setShowEmpty}
          />
        </div>
        {form.request !== null && screen.columns.length > 0 && (
          <FacetsPanel
            aside
            columns={screen.columns}
            chosen={screen.facetColumns}
            onChoose={screen.setFacetColumns}
            facets={search.data?.searchAvailable ? search.data.facets : undefined}
            onPick={form.addCriterion}
            disabled={screen.loading}
          />
        )}
      </div>
      <ExportDialog
        opened={exporter.opened}
        onClose={exporter.close}
        onExport={exporter.run}
        exporting={exporter.exporting}
        totalRecords={search.data?.totalRecords ?? 0}
        defaultFilename={screen.defaultFilename()}
        columns={screen.columns}
        defaultColumns={screen.visible}
        fileCount={fileCount}
        onPreview={preprocessing ? exporter.preview : undefined}
      />
      <ColumnSettings
        opened={screen.settings.opened}
        onClose={screen.settings.close}
        columns={screen.columns}
        visible={screen.visibleSet}
        onChange={screen.setVisible}
      />
    </>
  );
}
