import type { AppConfig } from '../config/config';

/** What a backup did (SQLite: the copy written) or what to run (MariaDB, PostgreSQL: `command`). */
export interface BackupResult {
  engine: 'sqlite' | 'mysql' | 'postgres';
  file?: string;
  bytes?: number;
  durationMs?: number;
  command?: string;
}

/** Placeholder until the backup's own branch is merged (it replaces this file). */
export async function backupDatabase(config: AppConfig, file: string): Promise<BackupResult> {
  void config;
  void file;
  throw new Error('not yet');
}
