import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ringfence/accounts';
import { CurrentPrincipal, RequiresRole, SecretKeyRoute } from '@ringfence/service-runtime';
import { ApiErrorResponses } from '../openapi/api-error-responses.decorator';
import { CreateUserRequestDto, UpdateUserRequestDto, UserListResponseDto, UserPathDto, UserResponseDto } from './people.dto';
import { PeopleUseCase } from './people.use-case';

const CREATE_DESCRIPTION = [
  "Makes a person of the key's account who signs in to the console with `email` and `password` (`POST /v2/sessions`).",
  "The account's first admin is made with the secret key; then an admin may make the others. Roles, weakest first: viewer (reads), analyst (labels, cases, payment reviews), rule_author (+ rules, backtests, models), admin (+ users, settings).",
  'The address is stored lower-cased and is unique over the server (409 when taken); the password (12 to 256 characters) is stored only as a scrypt hash.',
].join(' ');

/** Issue 37: an account's named people. */
@ApiTags('People')
@ApiSecurity('apiKey')
@Controller('v2/users')
export class UsersController {
  constructor(private readonly people: PeopleUseCase) {}

  // Every person may see who else works on the account (cases are assigned by e-mail address).
  @SecretKeyRoute()
  @Get()
  @ApiOperation({ summary: "The account's people", description: 'Oldest first; never a password or its hash.' })
  @ApiOkResponse({ type: UserListResponseDto })
  @ApiErrorResponses(401, 403, 429)
  async list(@CurrentPrincipal() principal: Principal): Promise<UserListResponseDto> {
    return { status: 200, timestamp: Date.now(), data: { users: await this.people.list(principal) } };
  }

  @SecretKeyRoute()
  @RequiresRole('admin')
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Make a person who signs in to the console', description: CREATE_DESCRIPTION })
  @ApiCreatedResponse({ type: UserResponseDto })
  @ApiErrorResponses(400, 401, 403, 409, 413, 415, 429)
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateUserRequestDto): Promise<UserResponseDto> {
    return { status: 201, timestamp: Date.now(), data: await this.people.create(principal, body) };
  }

  @SecretKeyRoute()
  @RequiresRole('admin')
  @Patch(':userId')
  @ApiParam({ name: 'userId', example: 'usr_3kT9QmZ2xV8bN1cR' })
  @ApiOperation({
    summary: "Change a person's name, role, password, or disable them",
    description: 'Disabling, a new role or a new password ends the person\'s sessions at once. An admin may not disable themselves or change their own role (409).',
  })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiErrorResponses(400, 401, 403, 404, 409, 413, 415, 429)
  async update(@CurrentPrincipal() principal: Principal, @Param() path: UserPathDto, @Body() body: UpdateUserRequestDto): Promise<UserResponseDto> {
    return { status: 200, timestamp: Date.now(), data: await this.people.update(principal, path.userId, body) };
  }
}
