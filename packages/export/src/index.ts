/**
 * The analysis export (README "Data dictionary"): a study's participant tasks, events and
 * participants (and questionnaire answers, when the registry has them) as CSV and Parquet,
 * made by DuckDB from the study logs and the registry, with the raw logs beside them.
 */
export { type ExportOptions, type ExportResult, exportStudy, MAX_REPORTED } from './export.ts';
export { type LogProblem, MAX_EVENT_PAYLOAD_CHARS, MAX_LOG_FILE_BYTES } from './logs.ts';
export { readExportTable } from './read.ts';
export { RegistryReadError } from './registry.ts';
export { type TaskSuccess, taskSuccess } from './success.ts';
export { zipFolder } from './zip.ts';
