import { Module } from '@nestjs/common';
import { ClientSdkController, clientSdkAssetsProvider } from './client-sdk.controller';

/** The web SDK's files at `/client/…` (ADR-0015): static, public, read once at start. */
@Module({ controllers: [ClientSdkController], providers: [clientSdkAssetsProvider] })
export class ClientSdkModule {}
