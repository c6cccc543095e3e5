import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppError, type SetAsideRow, SetAsideRows } from '@ringfence/platform';
import { IsOptionalQueryInteger } from '@ringfence/contracts';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { AdminRoute } from '../http/route-access.decorator';

export const DEFAULT_SET_ASIDE_PAGE = 50;
export const MAX_SET_ASIDE_PAGE = 500;
const SET_ASIDE_ID = /^sa_[0-9A-Za-z]{1,40}$/;

export class SetAsideRowsQueryDto {
  @IsOptional() @IsString() @MaxLength(100)
  writer?: string;

  @IsOptional() @IsString() @MaxLength(100)
  accountId?: string;

  @IsOptional() @IsString() @Matches(SET_ASIDE_ID, { message: 'must be a set-aside row id (sa_…)' })
  before?: string;

  @IsOptionalQueryInteger(1, MAX_SET_ASIDE_PAGE, `Rows per page, 1 to ${MAX_SET_ASIDE_PAGE}; default ${DEFAULT_SET_ASIDE_PAGE}.`, DEFAULT_SET_ASIDE_PAGE)
  limit?: number;
}

/**
 * The operator's read and replay of the rows this process's writers set aside (ADR-0016;
 * `row` is the JSON text the writer would have stored), with the admin token, on every app: the
 * gateway's (or the standalone server's) API port, a worker's ops port. Each app keeps the rows of its own writers in its own database, so a row is
 * listed and replayed by the app whose writer set it aside.
 */
@ApiExcludeController()
@Controller('admin/set-aside-rows')
export class SetAsideController {
  constructor(private readonly setAside: SetAsideRows) {}

  @AdminRoute()
  @Get()
  async list(@Query() query: SetAsideRowsQueryDto): Promise<{ writers: string[]; rows: SetAsideRow[] }> {
    const rows = await this.setAside.list({ writer: query.writer, accountId: query.accountId, before: query.before, limit: query.limit ?? DEFAULT_SET_ASIDE_PAGE });
    return { writers: this.setAside.writers, rows };
  }

  @AdminRoute()
  @Get(':id')
  async read(@Param('id') id: string): Promise<SetAsideRow> {
    const row = await this.setAside.get(id);
    if (row === null) throw new AppError('NOT_FOUND', `no set-aside row ${id} in this process's database`);
    return row;
  }

  /**
   * Gives the row back to its writer, which writes it now: 200 with `written`, its entry gone;
   * 409 when the store still refuses it (the entry stays, with the error in the message).
   */
  @AdminRoute()
  @Post(':id/replay')
  @HttpCode(200)
  async replay(@Param('id') id: string): Promise<{ id: string; writer: string; outcome: 'written' }> {
    const replayed = await this.setAside.replay(id);
    switch (replayed.outcome) {
      case 'written':
        return { id, writer: replayed.row.writer, outcome: 'written' };
      case 'unknown-row':
        throw new AppError('NOT_FOUND', `no set-aside row ${id} in this process's database`);
      case 'writer-not-here':
        throw new AppError('CONFLICT', `the writer ${replayed.row.writer} does not run in this process`);
      case 'not-written':
        throw new AppError('CONFLICT', `the store still refuses the row: ${replayed.error}`);
    }
  }
}
