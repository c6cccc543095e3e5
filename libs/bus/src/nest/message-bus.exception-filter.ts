import { type ArgumentsHost, Catch, type RpcExceptionFilter } from '@nestjs/common';
import { type Observable, throwError } from 'rxjs';

/**
 * Hands what a bus handler threw back to the bus unchanged. The bus maps errors the same way
 * for both adapters (`toRpcFailure`: an `AppError` keeps its code and status, a dependency's
 * timeout is a 503, anything else a logged 500 with the generic message) and retries a
 * throwing event handler. Nest's default RPC filter would instead replace every error that is
 * not an `RpcException` with `{ status: 'error', message: 'Internal server error' }`.
 */
@Catch()
export class MessageBusExceptionFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => exception);
  }
}
