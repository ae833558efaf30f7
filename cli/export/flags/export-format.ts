/** Output formats; the file extension or `--format` picks one. */
export type ExportFormat = 'sqlite' | 'csv' | 'jsonl' | 'parquet' | 'postgres'
