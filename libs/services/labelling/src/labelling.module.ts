import { Module } from '@nestjs/common';

/**
 * The labelling service's module: customer and supplier labels with their audit log arrive
 * with the interface work (see README); this release wires only the shared runtime.
 */
@Module({})
export class LabellingModule {}
