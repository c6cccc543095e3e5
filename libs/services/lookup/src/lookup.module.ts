import { Module } from '@nestjs/common';

/**
 * The lookup service's module: known-fraud indicators and breached credentials arrive with the
 * interface work (see README); this release wires only the shared runtime.
 */
@Module({})
export class LookupModule {}
